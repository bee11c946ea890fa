-- Sign-in identities other than e-mail and phone (users.email / users.phone): Google and Apple
-- subjects, Telegram ids and usernames. `secret_hash` holds the scrypt hash of a password.
CREATE TABLE identities (
  app_id      text NOT NULL,
  environment text NOT NULL,
  provider    text NOT NULL CHECK (provider IN ('google', 'apple', 'telegram', 'username')),
  subject     text NOT NULL,
  user_id     text NOT NULL REFERENCES users (id),
  secret_hash text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, environment, provider, subject)
);
CREATE INDEX identities_user ON identities (user_id);

-- Per-app secrets that never appear in the app config answer: the Telegram bot token, the ramp
-- client's id and RSA public key.
ALTER TABLE apps ADD COLUMN secrets jsonb NOT NULL DEFAULT '{}';

-- A resent code waits longer (the kit's resend countdown restarts at 300 s after a resend).
ALTER TABLE otp_codes ADD COLUMN is_resend boolean NOT NULL DEFAULT false;

-- Authorisation codes of the Google and Apple sign-in emulators (single use, 5 minutes).
CREATE TABLE oauth_codes (
  code_hash    text PRIMARY KEY,
  provider     text NOT NULL CHECK (provider IN ('google', 'apple')),
  client_id    text NOT NULL,
  redirect_uri text NOT NULL,
  nonce        text,
  claims       jsonb NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz
);

-- Ramp access tokens are JWTs; this only records which users opened a ramp account.
CREATE TABLE ramp_accounts (
  user_id    text PRIMARY KEY REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Request signatures seen within their 5-minute window (smart-account HMAC, ramp RSA): a replay is refused.
CREATE TABLE seen_signatures (
  signature  text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX seen_signatures_expiry ON seen_signatures (expires_at);

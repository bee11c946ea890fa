-- Passkeys (services/passkeys/): WebAuthn credentials with the provider origin as relying party.
-- A credential belongs to one user of one app; its public key is COSE (base64url), its counter the last
-- signature count seen (a clone of the authenticator shows up as a count that does not go up).
CREATE TABLE passkey_credentials (
  credential_id text PRIMARY KEY,
  app_id        text NOT NULL,
  environment   text NOT NULL,
  user_id       text NOT NULL REFERENCES users (id),
  public_key    text NOT NULL,
  counter       bigint NOT NULL DEFAULT 0,
  transports    jsonb NOT NULL DEFAULT '[]',
  name          text NOT NULL,
  backed_up     boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz
);
CREATE INDEX passkey_credentials_user ON passkey_credentials (user_id);

-- The challenges handed out with registration and sign-in options: each used once (deleted when a
-- response names it), valid a few minutes, bound to its app, its purpose and (registration) its user.
CREATE TABLE passkey_challenges (
  challenge   text PRIMARY KEY,
  app_id      text NOT NULL,
  environment text NOT NULL,
  purpose     text NOT NULL CHECK (purpose IN ('register', 'sign-in')),
  user_id     text REFERENCES users (id),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX passkey_challenges_expiry ON passkey_challenges (expires_at);

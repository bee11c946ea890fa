-- Plain PostgreSQL: the same file runs on PGlite and on a real server (DATABASE_URL).

CREATE TABLE apps (
  app_id          text NOT NULL,
  environment     text NOT NULL CHECK (environment IN ('production', 'development')),
  name            text NOT NULL,
  client_secret   text,
  allowed_origins jsonb NOT NULL DEFAULT '[]',
  settings        jsonb NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, environment)
);

-- Users belong to one app and environment, like test and live keys.
CREATE TABLE users (
  id          text PRIMARY KEY,
  app_id      text NOT NULL,
  environment text NOT NULL,
  email       text,
  phone       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (app_id, environment, email),
  UNIQUE (app_id, environment, phone)
);

CREATE TABLE wallets (
  id                       text PRIMARY KEY,
  user_id                  text NOT NULL UNIQUE REFERENCES users (id),
  address                  text NOT NULL,
  encrypted_key            text NOT NULL,
  encrypted_recovery_share text NOT NULL,
  created_at               timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE otp_codes (
  id          text PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  app_id      text NOT NULL,
  environment text NOT NULL,
  channel     text NOT NULL CHECK (channel IN ('email', 'whatsapp')),
  destination text NOT NULL,
  code_hash   text NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  expires_at  timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX otp_codes_destination ON otp_codes (app_id, environment, destination, created_at);

-- One row per issued refresh token; a family is one login's chain of rotations.
CREATE TABLE refresh_tokens (
  id          text PRIMARY KEY,
  family_id   text NOT NULL,
  user_id     text NOT NULL REFERENCES users (id),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  revoked_at  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

-- The dev inbox: what a real service would e-mail or text.
CREATE TABLE inbox_messages (
  seq         bigserial PRIMARY KEY,
  id          text NOT NULL UNIQUE,
  app_id      text NOT NULL,
  recipient   text NOT NULL,
  channel     text NOT NULL CHECK (channel IN ('email', 'whatsapp')),
  subject     text NOT NULL,
  body        text NOT NULL,
  code        text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbox_messages_recipient ON inbox_messages (recipient, seq);

-- Step-up (services/step-up/): a fresh second factor before an action that takes value or control
-- out of the wallet. A challenge is one factor check (an e-mail code) started for one action of one
-- session; its id is kept only as a SHA-256, and the factor's own state (the code's verification
-- token, which the client never sees) sealed with the master key, bound to that hash.
CREATE TABLE step_up_challenges (
  id_hash      text PRIMARY KEY,
  app_id       text NOT NULL,
  environment  text NOT NULL,
  user_id      text NOT NULL REFERENCES users (id),
  family_id    text NOT NULL,
  action       text NOT NULL,
  request_hash text,
  factor       text NOT NULL,
  sealed_state text NOT NULL,
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX step_up_challenges_expiry ON step_up_challenges (expires_at);

-- What a passed challenge earns: a random proof, kept only as its SHA-256, bound to the user, the
-- session (refresh family), the action and the request hash the challenge named; usable once
-- (used_at), for a few minutes. A used row stays until it expires, so a second use reads as such.
CREATE TABLE step_up_proofs (
  proof_hash   text PRIMARY KEY,
  app_id       text NOT NULL,
  environment  text NOT NULL,
  user_id      text NOT NULL REFERENCES users (id),
  family_id    text NOT NULL,
  action       text NOT NULL,
  request_hash text,
  factor       text NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX step_up_proofs_expiry ON step_up_proofs (expires_at);

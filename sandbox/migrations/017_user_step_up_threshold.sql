-- A user's own step-up threshold (services/wallet/user-threshold.ts): above which native value on a
-- chain a transaction of theirs needs a fresh second factor, on top of the app's setting (the lower
-- of the two applies). Kept in the chain's base unit as a decimal string, so no precision is lost.
CREATE TABLE user_step_up_thresholds (
  user_id    text NOT NULL REFERENCES users (id),
  chain_id   bigint NOT NULL,
  above      text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, chain_id)
);

-- Smart accounts (ERC-4337) of the smart-account service. One counterfactual account per owner,
-- app and chain; its address comes from the account factory and never changes. Status is what the
-- service last saw: not_deployed, deploying (a deploying operation is on its way), deployed.
CREATE TABLE smart_accounts (
  id             text PRIMARY KEY,
  app_id         text NOT NULL,
  environment    text NOT NULL,
  owner          text NOT NULL,
  owner_provider text NOT NULL,
  chain_id       integer NOT NULL,
  address        text NOT NULL,
  status         text NOT NULL DEFAULT 'not_deployed' CHECK (status IN ('not_deployed', 'deploying', 'deployed')),
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (app_id, environment, owner, chain_id)
);

-- User operations: built by the service (its hash signed by the owner) or sent to the bundler
-- endpoint. `sponsored` is fixed when the operation is built: the paymaster data is part of the hash.
-- Tracking resumes after a restart from the rows still 'submitted'.
CREATE TABLE user_operations (
  id           text PRIMARY KEY,
  hash         text NOT NULL UNIQUE,
  chain_id     integer NOT NULL,
  sender       text NOT NULL,
  account_id   text REFERENCES smart_accounts (id),
  app_id       text,
  environment  text,
  kind         text NOT NULL,
  user_op      jsonb NOT NULL,
  sponsored    boolean NOT NULL,
  max_cost     numeric(78, 0) NOT NULL DEFAULT 0,
  status       text NOT NULL CHECK (status IN ('built', 'submitted', 'included', 'failed')),
  tx_hash      text,
  receipt      jsonb,
  reason       text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  submitted_at timestamptz
);
CREATE INDEX user_operations_status ON user_operations (status);

-- The gas tank of each app on each chain, in wei: sponsored operations are paid from it.
CREATE TABLE gas_tanks (
  app_id      text NOT NULL,
  environment text NOT NULL,
  chain_id    integer NOT NULL,
  balance     numeric(78, 0) NOT NULL DEFAULT 0 CHECK (balance >= 0),
  PRIMARY KEY (app_id, environment, chain_id)
);

-- Top-up transfers already credited: a transaction credits one tank once.
CREATE TABLE gas_tank_topups (
  chain_id    integer NOT NULL,
  tx_hash     text NOT NULL,
  app_id      text NOT NULL,
  environment text NOT NULL,
  amount      numeric(78, 0) NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, tx_hash)
);

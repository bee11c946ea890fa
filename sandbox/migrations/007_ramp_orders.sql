-- The ramp API's orders (/v1/onramp, /v1/offramp) and off-ramp recipients, per app and environment.
-- An on-ramp order is completed by the hosted on-ramp page: the page's own order row (onramp_orders)
-- links to it (ramp_order_id). An off-ramp order's deposit key is derived from the master key and
-- the order id (services/ramp/deposits.ts), never stored.
CREATE TABLE ramp_recipients (
  id             text PRIMARY KEY,
  app_id         text NOT NULL,
  environment    text NOT NULL,
  bank           text NOT NULL,
  account_number text NOT NULL,
  name           text NOT NULL,
  deleted_at     timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ramp_recipients_app ON ramp_recipients (app_id, environment, created_at);

CREATE TABLE ramp_orders (
  id              text PRIMARY KEY,
  app_id          text NOT NULL,
  environment     text NOT NULL,
  direction       text NOT NULL CHECK (direction IN ('onramp', 'offramp')),
  crypto_id       text NOT NULL,
  chain_id        integer NOT NULL,
  asset           text NOT NULL CHECK (asset IN ('ETH', 'DEMO')),
  fiat            text NOT NULL,
  fiat_amount     text NOT NULL,
  crypto_amount   text NOT NULL,
  quote           jsonb NOT NULL,
  receiver        text,
  recipient_id    text REFERENCES ramp_recipients (id),
  deposit_address text,
  start_block     text,
  paid_at         timestamptz,
  tx_hash         text,
  expires_at      timestamptz NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ramp_orders_app ON ramp_orders (app_id, environment, direction, created_at);

ALTER TABLE onramp_orders ADD COLUMN ramp_order_id text REFERENCES ramp_orders (id);

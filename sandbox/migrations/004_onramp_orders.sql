-- Orders of the hosted on-ramp page (GET /onramp). The page's form carries the order token; only
-- its hash is kept, with the hash of the browser cookie it was issued to. Paying claims the row
-- once (used_at), so a token cannot pay twice.
CREATE TABLE onramp_orders (
  token_hash   text PRIMARY KEY,
  browser_hash text NOT NULL,
  app_id       text NOT NULL,
  environment  text NOT NULL,
  receiver     text NOT NULL,
  chain_id     integer NOT NULL,
  asset        text NOT NULL CHECK (asset IN ('ETH', 'DEMO')),
  amount       text NOT NULL,
  quote        jsonb NOT NULL,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  tx_hash      text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX onramp_orders_expiry ON onramp_orders (expires_at);

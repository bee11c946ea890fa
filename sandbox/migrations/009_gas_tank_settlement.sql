-- What each sponsored operation holds from, or has paid out of, its app's gas tank. The tank pays
-- for what the chain did: `reserved` is the maximum cost set aside while the operation may still be
-- included (by the sandbox's bundler or by anyone else); `charged` is what the tank paid once its
-- UserOperationEvent was on chain; `settled_at` is when the reservation ended (charged, or given
-- back because the chain shows it can no longer be included: its nonce taken, or its sponsorship expired).
ALTER TABLE user_operations ADD COLUMN reserved numeric(78, 0) NOT NULL DEFAULT 0 CHECK (reserved >= 0);
ALTER TABLE user_operations ADD COLUMN charged numeric(78, 0) NOT NULL DEFAULT 0 CHECK (charged >= 0);
ALTER TABLE user_operations ADD COLUMN settled_at timestamptz;

-- Rows from before: submitted ones hold their maximum (taken when sent), the others were settled then.
UPDATE user_operations SET reserved = max_cost WHERE sponsored AND status = 'submitted';
UPDATE user_operations SET charged = (receipt ->> 'actualGasCost')::numeric, settled_at = now()
  WHERE sponsored AND status = 'included' AND receipt IS NOT NULL;
UPDATE user_operations SET settled_at = now() WHERE sponsored AND status = 'failed';

-- The per-user daily sponsorship cap sums one account's sponsored operations of the last day.
CREATE INDEX user_operations_sponsored_by ON user_operations (app_id, environment, chain_id, sender, submitted_at) WHERE sponsored;
-- Sponsored operations whose reservation is still open (watched until the chain settles them).
CREATE INDEX user_operations_unsettled ON user_operations (chain_id) WHERE sponsored AND settled_at IS NULL;

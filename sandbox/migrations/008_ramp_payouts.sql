-- Ramp orders made recoverable and fixed in time (services/ramp).
-- Off-ramp: the recipient's bank details as they were when the order was made (payout_to), so
-- editing or deleting the recipient later changes no existing order's payout. Orders made before
-- this migration take the recipient's details of now, the best there is.
ALTER TABLE ramp_orders ADD COLUMN payout_to jsonb;
UPDATE ramp_orders o SET payout_to = jsonb_build_object('bank', r.bank, 'accountNumber', r.account_number, 'name', r.name)
  FROM ramp_recipients r WHERE o.recipient_id = r.id AND o.direction = 'offramp';
-- On-ramp: a payout that failed (the order is 'failed' with this reason, and its payment link can
-- pay it again), instead of an order left 'paid' that nothing completes.
ALTER TABLE ramp_orders ADD COLUMN failed_at timestamptz;
ALTER TABLE ramp_orders ADD COLUMN failure_reason text;
-- The watcher's query: unpaid off-ramp orders by expiry.
CREATE INDEX ramp_orders_waiting ON ramp_orders (expires_at) WHERE direction = 'offramp' AND paid_at IS NULL;

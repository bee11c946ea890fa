-- Sponsorships the paymaster signed for an app through the ERC-7677 endpoints (pm_getPaymasterData)
-- are stored as user operations with status 'paymaster_signed' and their maximum cost set aside in
-- the app's gas tank, keyed by the userOpHash: whoever includes them (eth_sendUserOperation here, or
-- the app's own handleOps), the chain watch charges their actualGasCost; the reservation comes back
-- once the chain shows they cannot be included (nonce used, sponsorship expired).
ALTER TABLE user_operations DROP CONSTRAINT user_operations_status_check;
ALTER TABLE user_operations ADD CONSTRAINT user_operations_status_check
  CHECK (status IN ('built', 'submitted', 'included', 'failed', 'paymaster_signed'));

-- The same operation asked again finds its open sponsorship (one reservation per operation).
CREATE INDEX user_operations_paymaster_signed ON user_operations (chain_id, sender) WHERE status = 'paymaster_signed';

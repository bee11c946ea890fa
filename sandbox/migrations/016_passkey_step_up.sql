-- A passkey as a step-up factor (services/step-up/): its WebAuthn challenges are passkey challenges
-- of their own purpose, so a sign-in or registration challenge never answers a step-up, nor the reverse.
ALTER TABLE passkey_challenges DROP CONSTRAINT passkey_challenges_purpose_check;
ALTER TABLE passkey_challenges ADD CONSTRAINT passkey_challenges_purpose_check CHECK (purpose IN ('register', 'sign-in', 'step-up'));

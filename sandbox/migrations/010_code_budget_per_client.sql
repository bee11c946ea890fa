-- Login codes belong to the client that asked for them (otp.ts): its address as the per-IP limits
-- key it (http/rate-limit.ts ipKey). A new code replaces only that client's earlier one, and wrong
-- codes are counted per (destination, requesting client): a budget per destination alone was a
-- switch anyone could flip to lock an e-mail address out of code login for 24 hours.
ALTER TABLE otp_codes ADD COLUMN requester text NOT NULL DEFAULT '';
CREATE INDEX otp_codes_requester ON otp_codes (app_id, environment, destination, requester, created_at);

-- One row per (destination, client); client '*' is the destination's tally over all clients, which
-- refuses no one (it would be the same switch) but leaves each code one attempt once it is high.
ALTER TABLE otp_guess_budgets ADD COLUMN client text NOT NULL DEFAULT '*';
ALTER TABLE otp_guess_budgets DROP CONSTRAINT otp_guess_budgets_pkey;
ALTER TABLE otp_guess_budgets ADD PRIMARY KEY (app_id, environment, destination, client);

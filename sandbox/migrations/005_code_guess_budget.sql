-- Wrong login codes per destination (e-mail address or phone number) in a 24-hour window that opens
-- with the first wrong code (otp.ts): the budget a guesser has against one mailbox, whatever number
-- of codes it asks for. A new code does not reset it.
CREATE TABLE otp_guess_budgets (
  app_id       text NOT NULL,
  environment  text NOT NULL,
  destination  text NOT NULL,
  window_start timestamptz NOT NULL,
  failures     integer NOT NULL,
  PRIMARY KEY (app_id, environment, destination)
);

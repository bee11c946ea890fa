-- Identity tokens (services/identity/): the provider's ES256 signing keys. A key is published in
-- the JWKS from the moment it is made, before it signs anything (activated_at NULL: the next key),
-- so a verifier that cached the JWKS before a rotation already knows the new key. The newest
-- activated key signs; an older one stays published until the last token it signed has expired,
-- then its row is deleted. The private half is sealed with the master key, bound to its kid.
CREATE TABLE identity_keys (
  kid                text PRIMARY KEY,
  public_jwk         jsonb NOT NULL,
  sealed_private_jwk text NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  activated_at       timestamptz
);

-- How each session (refresh family) began: e-mail or WhatsApp code, Google, Apple, Telegram,
-- password, or a recovery file. An identity token names it.
CREATE TABLE session_sign_ins (
  family_id  text PRIMARY KEY,
  method     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A wallet whose owner has not granted the signing permission is refused every signing and
-- sending call (reads stay open) until the permission-accept page is confirmed.
ALTER TABLE wallets ADD COLUMN permission_granted boolean NOT NULL DEFAULT true;

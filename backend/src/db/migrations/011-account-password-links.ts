/**
 * Invitations bound to an account: an administrator creates an account without a password, or resets one, and the
 * person sets the password with a one-time code. Invitations without an account stay registration invitations.
 */
export const sql = /* sql */ `
ALTER TABLE invitations ADD COLUMN user_id integer REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX invitations_user_idx ON invitations (user_id) WHERE user_id IS NOT NULL;
`

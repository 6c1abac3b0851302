/**
 * Who the built-in administrator is, sessions that can end, and registration by invitation (ADR 050–053):
 * - the built-in administrator is one marked row, found by that mark and never by its name; the row the start-up
 *   step created before this migration (the first local administrator named "Administrator" with no last name,
 *   which registration cannot produce) is marked;
 * - every sign-in is a session row that a token names; signing out, a password change or disabling the account
 *   delete the rows, and each row ends at an absolute time however often its tokens are renewed;
 * - the sign-in provider's tokens issued before tokens_valid_after are refused (sign-out, disabling);
 * - failed sign-ins are counted by client address and account name in memory, not on the account any more;
 * - invitations: a one-time code (kept as its SHA-256) for registering into one organisation before a date.
 */
export const sql = /* sql */ `
ALTER TABLE users ADD COLUMN is_builtin_admin boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX users_builtin_admin_idx ON users (is_builtin_admin) WHERE is_builtin_admin;
UPDATE users SET is_builtin_admin = true WHERE id = (
  SELECT u.id FROM users u JOIN groups g ON g.id = u.group_id
  WHERE g.role = 'admin' AND u.external_subject IS NULL AND u.password_hash IS NOT NULL AND u.first_name = 'Administrator' AND u.last_name = ''
  ORDER BY u.id LIMIT 1
);

ALTER TABLE users DROP COLUMN failed_logins;
ALTER TABLE users DROP COLUMN locked_until;
ALTER TABLE users ADD COLUMN tokens_valid_after timestamptz;

CREATE TABLE sessions (
  id          text PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  started_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expiry_idx ON sessions (expires_at);

CREATE TABLE invitations (
  id               serial PRIMARY KEY,
  code_hash        text NOT NULL UNIQUE,
  organization_id  integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  note             text NOT NULL DEFAULT '',
  created_by       integer REFERENCES users (id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  used_at          timestamptz,
  used_by          integer REFERENCES users (id) ON DELETE SET NULL
);
`

/** Built-in role groups are marked; integration keys, each acting through a service account of its own. */
export const sql = /* sql */ `
-- The three role groups every organisation is created with; the first group of each role is the built-in one.
ALTER TABLE groups ADD COLUMN builtin boolean NOT NULL DEFAULT false;
UPDATE groups SET builtin = true WHERE id IN (SELECT min(id) FROM groups GROUP BY organization_id, role);
CREATE UNIQUE INDEX groups_name_idx ON groups (organization_id, lower(name));

-- An account that exists only so an integration key has someone to act as; it never signs in with a password.
ALTER TABLE users ADD COLUMN is_service boolean NOT NULL DEFAULT false;

CREATE TABLE api_keys (
  id               serial PRIMARY KEY,
  name             text NOT NULL,
  role             text NOT NULL CHECK (role IN ('admin', 'editor', 'user')),
  organization_id  integer NOT NULL REFERENCES organizations (id),
  user_id          integer NOT NULL REFERENCES users (id),
  key_hash         text NOT NULL UNIQUE,
  prefix           text NOT NULL,
  created_by       integer REFERENCES users (id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_used_at     timestamptz,
  revoked_at       timestamptz
);
CREATE INDEX api_keys_org_idx ON api_keys (organization_id);
`

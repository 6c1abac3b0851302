/** Organisations, groups with roles, users; comments, favourites, templates; who asked each question. */
export const sql = /* sql */ `
CREATE TABLE organizations (
  id          serial PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX organizations_name_idx ON organizations (lower(name));

CREATE TABLE groups (
  id               serial PRIMARY KEY,
  organization_id  integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name             text NOT NULL,
  role             text NOT NULL CHECK (role IN ('admin', 'editor', 'user')),
  UNIQUE (organization_id, name)
);

CREATE TABLE users (
  id                serial PRIMARY KEY,
  username          text NOT NULL,
  email             text NOT NULL,
  first_name        text NOT NULL DEFAULT '',
  last_name         text NOT NULL DEFAULT '',
  cellphone         text NOT NULL DEFAULT '',
  password_hash     text,
  enabled           boolean NOT NULL DEFAULT true,
  organization_id   integer NOT NULL REFERENCES organizations (id),
  group_id          integer NOT NULL REFERENCES groups (id),
  external_subject  text UNIQUE,
  failed_logins     integer NOT NULL DEFAULT 0,
  locked_until      timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_idx ON users (lower(username));
CREATE UNIQUE INDEX users_email_idx ON users (lower(email));

INSERT INTO organizations (name) VALUES ('Default organisation');
INSERT INTO groups (organization_id, name, role)
  SELECT o.id, g.name, g.role FROM organizations o
  CROSS JOIN (VALUES ('Administrators', 'admin'), ('Editors', 'editor'), ('Users', 'user')) AS g (name, role);

ALTER TABLE query_logs DROP COLUMN user_id;
ALTER TABLE query_logs ADD COLUMN user_id integer REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE query_logs ADD COLUMN organization_id integer REFERENCES organizations (id) ON DELETE SET NULL;
ALTER TABLE query_logs ADD COLUMN feedback_at timestamptz;
CREATE INDEX query_logs_org_idx ON query_logs (organization_id, id DESC);

-- Comments on a log after the main one (SEED.md: comment_list with id, comment_id, has_comment, comment).
CREATE TABLE query_log_comments (
  id          serial PRIMARY KEY,
  log_id      integer NOT NULL REFERENCES query_logs (id) ON DELETE CASCADE,
  user_id     integer REFERENCES users (id) ON DELETE SET NULL,
  comment     text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX query_log_comments_log_idx ON query_log_comments (log_id, id);

CREATE TABLE query_favorites (
  id          serial PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  log_id      integer NOT NULL REFERENCES query_logs (id) ON DELETE CASCADE,
  comment     text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, log_id)
);

CREATE TABLE templates (
  id            serial PRIMARY KEY,
  name          text NOT NULL,
  description   text NOT NULL DEFAULT '',
  instructions  text NOT NULL DEFAULT '',
  sections      jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX templates_name_idx ON templates (lower(name));

-- Case- and accent-insensitive text for table filters (SEED.md §5), without needing the unaccent extension.
CREATE FUNCTION fold_text(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT translate(lower(value), 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćĉċčďēĕėęěĝğġģĥĩīĭįĵķĺļľńņňōŏőŕŗřśŝşšţťũūŭůűųŵŷźżžſơưǎǐǒǔǖǘǚǜǟǡǧǩǫǭǰǵǹǻȁȃȅȇȉȋȍȏȑȓȕȗșțȟȧȩȫȭȯȱȳ', 'aaaaaaceeeeiiiinooooouuuuyyaaaccccdeeeeegggghiiiijklllnnnooorrrssssttuuuuuuwyzzzsouaiouuuuuaagkoojgnaaaeeiioorruusthaeooooy')
$$;

CREATE TABLE agent_settings (
  id          integer PRIMARY KEY CHECK (id = 1),
  settings    jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
`

/** Articles, drafts, the persisted retrieval index, jobs and the query log. */
export const sql = /* sql */ `
CREATE TABLE articles (
  id          serial PRIMARY KEY,
  title       text NOT NULL,
  content     text NOT NULL,
  metadata    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX articles_title_idx ON articles (lower(title));

CREATE TABLE temp_articles (
  id          serial PRIMARY KEY,
  title       text NOT NULL,
  content     text NOT NULL,
  metadata    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- One row per indexed passage; terms maps each stem to its frequency so the BM25 index can be rebuilt from here.
CREATE TABLE chunks (
  id          serial PRIMARY KEY,
  article_id  integer NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  ordinal     integer NOT NULL,
  text        text NOT NULL,
  terms       jsonb NOT NULL,
  length      integer NOT NULL
);
CREATE INDEX chunks_article_idx ON chunks (article_id);

-- Append-only log of index changes: every process replays it to keep its in-memory index current.
CREATE TABLE index_changes (
  seq         bigserial PRIMARY KEY,
  chunk_id    integer NOT NULL,
  operation   text NOT NULL CHECK (operation IN ('add', 'remove')),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE jobs (
  id           text PRIMARY KEY,
  kind         text NOT NULL,
  payload      jsonb NOT NULL DEFAULT '{}'::jsonb,
  status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'finished', 'failed', 'cancelled')),
  progress     integer NOT NULL DEFAULT 0,
  total        integer NOT NULL DEFAULT 0,
  result       jsonb,
  error        text,
  attempts     integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  run_after    timestamptz NOT NULL DEFAULT now(),
  locked_by    text,
  locked_at    timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);
CREATE INDEX jobs_queue_idx ON jobs (status, run_after);
CREATE INDEX jobs_kind_idx ON jobs (kind, created_at DESC);

CREATE TABLE query_logs (
  id           serial PRIMARY KEY,
  command      text NOT NULL,
  answer       text,
  source_list  jsonb NOT NULL DEFAULT '[]'::jsonb,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'answered', 'not_found', 'blocked', 'failed')),
  mode         text NOT NULL DEFAULT 'expert',
  feedback     text CHECK (feedback IN ('like', 'dislike')),
  comment      text,
  task_id      text,
  timezone     text,
  user_id      text,
  duration_ms  integer,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX query_logs_task_idx ON query_logs (task_id);

-- Small facts about this installation, such as whether the demo knowledge base was loaded.
CREATE TABLE app_state (
  key    text PRIMARY KEY,
  value  jsonb NOT NULL
);

CREATE TABLE bot_settings (
  id        integer PRIMARY KEY CHECK (id = 1),
  settings  jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`

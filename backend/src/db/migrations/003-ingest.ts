/** Ingestion: stored originals, per-file and per-page progress of import jobs, and imported videos. */
export const sql = /* sql */ `
-- Every original kept in the blob store, so /download can answer with its name and content type.
CREATE TABLE stored_files (
  s3_key        text PRIMARY KEY,
  file_name     text NOT NULL,
  content_type  text NOT NULL,
  size_bytes    bigint NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- One row per file of an upload job; the draft ids are written in the same transaction as the drafts,
-- so a resumed job knows exactly which files are done.
CREATE TABLE ingest_files (
  job_id        text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  position      integer NOT NULL,
  file_name     text NOT NULL,
  s3_key        text NOT NULL,
  format        text NOT NULL,
  content_type  text NOT NULL,
  size_bytes    bigint NOT NULL,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'imported', 'failed')),
  draft_ids     integer[] NOT NULL DEFAULT '{}',
  error         text,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, position)
);

-- The crawl frontier and its outcome: one row per URL per crawl job, never two.
CREATE TABLE crawl_pages (
  id             bigserial UNIQUE,
  job_id         text NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  url            text NOT NULL,
  depth          integer NOT NULL,
  status         text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'imported', 'visited', 'failed', 'excluded', 'skipped')),
  draft_id       integer,
  reason         text,
  redirected_to  text,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, url)
);
CREATE INDEX crawl_pages_frontier_idx ON crawl_pages (job_id, status, depth, id);
CREATE INDEX crawl_pages_status_idx ON crawl_pages (status);

CREATE TABLE tube_videos (
  url         text PRIMARY KEY,
  video_id    text NOT NULL,
  title       text NOT NULL,
  draft_id    integer,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
`

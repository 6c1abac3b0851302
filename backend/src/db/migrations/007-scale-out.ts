/**
 * Several processes on one PostgreSQL database (ADR 070, 072):
 * - every statement that appends to index_changes first takes a transaction-scoped advisory lock, so index
 *   writers commit one after another and `seq` order is commit order; it also notifies the listeners of this
 *   schema, who replay the log at once instead of before their next search;
 * - a running job's worker refreshes heartbeat_at, and a job whose heartbeat is too old is requeued;
 * - a job queued or ended notifies the workers and waiters of this schema.
 * The lock key's second half is the schema's hash, so schemas sharing one database do not wait for each other.
 * Function bodies stay on one line: migrations are split on semicolons at line ends.
 */
export const sql = /* sql */ `
CREATE FUNCTION index_changes_serialise() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(72531070, hashtext(current_schema())); PERFORM pg_notify('kb_index.' || current_schema(), ''); RETURN NULL; END $$;

CREATE TRIGGER index_changes_serialise BEFORE INSERT ON index_changes FOR EACH STATEMENT EXECUTE FUNCTION index_changes_serialise();

ALTER TABLE jobs ADD COLUMN heartbeat_at timestamptz;

CREATE FUNCTION jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.status IN ('queued', 'finished', 'failed', 'cancelled') THEN PERFORM pg_notify('kb_jobs.' || current_schema(), NEW.status || ' ' || NEW.id); END IF; RETURN NULL; END $$;

CREATE TRIGGER jobs_notify AFTER INSERT OR UPDATE OF status ON jobs FOR EACH ROW EXECUTE FUNCTION jobs_notify();
`

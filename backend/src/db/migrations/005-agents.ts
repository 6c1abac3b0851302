/** Agent runs in the query log: which agent ran, the template it filled, its step trace and sections, why it failed. */
export const sql = /* sql */ `
ALTER TABLE query_logs ADD COLUMN variant text CHECK (variant IN ('general', 'government'));
ALTER TABLE query_logs ADD COLUMN template_id integer REFERENCES templates (id) ON DELETE SET NULL;
-- The step trace (log_agent_ask_qa) and the government agent's filled sections, written when the run ends.
ALTER TABLE query_logs ADD COLUMN steps jsonb;
ALTER TABLE query_logs ADD COLUMN sections jsonb;
ALTER TABLE query_logs ADD COLUMN error text;
-- A cancelled run is logged as failed; this says it was cancelled rather than broken.
ALTER TABLE query_logs ADD COLUMN cancelled_at timestamptz;
`

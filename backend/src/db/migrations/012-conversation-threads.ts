/**
 * Conversations: every expert question belongs to a thread, named by the id of its first question's log; a
 * follow-up carries the thread of the question it follows. Feedback may come with a reason in the asker's words.
 */
export const sql = /* sql */ `
ALTER TABLE query_logs ADD COLUMN thread_id integer;
-- Older questions each start a thread of their own.
UPDATE query_logs SET thread_id = id WHERE thread_id IS NULL AND mode = 'expert';
CREATE INDEX query_logs_thread_idx ON query_logs (thread_id, id);
ALTER TABLE query_logs ADD COLUMN feedback_reason text;
`

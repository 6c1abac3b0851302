/**
 * Answers written by a language model: which model wrote the answer, whether it fell back to quoting the sources
 * (and why), its token counts and timings, the note shown with the answer, the sentences no source supports, and
 * how many passages the firewall screened before the model read them. All null for quoted answers and older logs.
 */
export const sql = /* sql */ `
ALTER TABLE query_logs ADD COLUMN llm_model text;
-- Why the model's answer was replaced by the quoted one (timeout, rate_limited, server, connection, interrupted, …).
ALTER TABLE query_logs ADD COLUMN llm_fallback text;
ALTER TABLE query_logs ADD COLUMN llm_tokens_in integer;
ALTER TABLE query_logs ADD COLUMN llm_tokens_out integer;
ALTER TABLE query_logs ADD COLUMN llm_first_token_ms integer;
ALTER TABLE query_logs ADD COLUMN llm_total_ms integer;
ALTER TABLE query_logs ADD COLUMN answer_note text;
ALTER TABLE query_logs ADD COLUMN unsupported_sentences jsonb;
ALTER TABLE query_logs ADD COLUMN screened_passages integer;
`

/**
 * Articles that may help (ADR 314): a not-found answer keeps the articles whose passages came close to the question,
 * so the answer's page lists them whenever it is shown again. Empty for every other answer.
 */
export const sql = /* sql */ `
ALTER TABLE query_logs ADD COLUMN related_list jsonb NOT NULL DEFAULT '[]'::jsonb;
`

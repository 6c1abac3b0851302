/**
 * Imports that are already in the knowledge base (ADR 311): an uploaded document or a crawled page with the same title
 * and content as a draft or a published article, white space aside, makes no draft; the import says what it matched.
 * - ingest_files.duplicates: a file's documents that were already there, each with its row and the draft or article it
 *   matched (null until the file is read);
 * - crawl_pages.duplicate_of: the draft or article a page matched;
 * - an index on each table's content with its white space collapsed, so that the check finds the few candidates
 *   without reading every article. The expression is the one ingest.repository.ts compares with, word for word.
 */
export const sql = /* sql */ `
ALTER TABLE ingest_files ADD COLUMN duplicates jsonb;
ALTER TABLE crawl_pages ADD COLUMN duplicate_of jsonb;
CREATE INDEX temp_articles_content_key_idx ON temp_articles (md5(regexp_replace(regexp_replace(content, '[[:space:]]+', ' ', 'g'), '^ | $', '', 'g')));
CREATE INDEX articles_content_key_idx ON articles (md5(regexp_replace(regexp_replace(content, '[[:space:]]+', ' ', 'g'), '^ | $', '', 'g')));
`

import type { Database } from './database'
import * as initial from './migrations/001-initial'
import * as identity from './migrations/002-identity-and-curation'
import * as ingest from './migrations/003-ingest'
import * as agents from './migrations/005-agents'
import * as sessions from './migrations/006-sessions-and-registration'
import * as scaleOut from './migrations/007-scale-out'
import * as answerMetrics from './migrations/008-answer-model-metrics'
import * as chunkEmbeddings from './migrations/009-chunk-embeddings'
import * as organizationsAndApiKeys from './migrations/010-organizations-and-api-keys'
import * as accountPasswordLinks from './migrations/011-account-password-links'
import * as conversationThreads from './migrations/012-conversation-threads'
import * as sharedLimits from './migrations/013-shared-limits'
import * as identicalImports from './migrations/014-identical-imports'
import * as relatedArticles from './migrations/015-related-articles'

/** Forward-only migrations, applied in order; an applied migration is never edited, only followed by a new one. */
export const migrations: ReadonlyArray<{ id: string; sql: string }> = [
  { id: '001-initial', sql: initial.sql },
  { id: '002-identity-and-curation', sql: identity.sql },
  { id: '003-ingest', sql: ingest.sql },
  { id: '005-agents', sql: agents.sql },
  { id: '006-sessions-and-registration', sql: sessions.sql },
  { id: '007-scale-out', sql: scaleOut.sql },
  { id: '008-answer-model-metrics', sql: answerMetrics.sql },
  { id: '009-chunk-embeddings', sql: chunkEmbeddings.sql },
  { id: '010-organizations-and-api-keys', sql: organizationsAndApiKeys.sql },
  { id: '011-account-password-links', sql: accountPasswordLinks.sql },
  { id: '012-conversation-threads', sql: conversationThreads.sql },
  { id: '013-shared-limits', sql: sharedLimits.sql },
  { id: '014-identical-imports', sql: identicalImports.sql },
  { id: '015-related-articles', sql: relatedArticles.sql },
]

// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK = 72_531_004

/** Applies the migrations not yet recorded in schema_migrations, each in its own transaction. */
export async function migrate(db: Database): Promise<string[]> {
  // Under the lock too: two processes creating the table at once would collide even with IF NOT EXISTS.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`)
  })
  const applied: string[] = []
  for (const migration of migrations) {
    const wasApplied = await db.transaction(async (tx) => {
      // Serialises concurrent starts of several backend processes against one server.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [migration.id])
      if (done.length > 0) return false
      for (const statement of splitStatements(migration.sql)) await tx.query(statement)
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id])
      return true
    })
    if (wasApplied) applied.push(migration.id)
  }
  return applied
}

/** Splits a migration on statement-ending semicolons; migrations keep to plain DDL (no function bodies). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0)
}

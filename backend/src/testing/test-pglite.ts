// Throw-away PGlite databases for tests, begun from one empty database directory instead of PGlite's own first start.
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { openDatabase, pgliteExtensions, type Database } from '../db/database'

let pgliteTemplate: Promise<string> | undefined

/**
 * An empty PGlite database directory, as PGlite makes it on first start (its initdb: most of a start's time, ~5 s on a
 * busy 2-core machine), made once per machine and PGlite version and copied into each test backend's data directory
 * (~1 s in all). Made aside and renamed into place, so two test workers never see half of one.
 */
export function emptyPgliteDirectory(): Promise<string> {
  pgliteTemplate ??= (async () => {
    const require = createRequire(import.meta.url)
    const packageFile = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json')
    const { version } = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string }
    const directory = path.join(tmpdir(), `kb-test-pglite-${version}`)
    if (existsSync(directory)) return directory
    const making = mkdtempSync(path.join(tmpdir(), 'kb-test-pglite-making-'))
    const lite = await PGlite.create(making, { extensions: await pgliteExtensions() })
    await lite.close()
    try {
      renameSync(making, directory)
    } catch (error) {
      // Another worker put its own in place first: the same directory, made the same way.
      if (!existsSync(directory)) throw error
      rmSync(making, { recursive: true, force: true })
    }
    return directory
  })()
  return pgliteTemplate
}

/** Begins `dataDir`'s PGlite database (its pgdata directory, as `openDatabase` finds it) as a copy of `emptyPgliteDirectory`. */
export async function beginPgliteDatabase(dataDir: string): Promise<void> {
  cpSync(await emptyPgliteDirectory(), path.join(dataDir, 'pgdata'), { recursive: true })
}

/**
 * A throw-away PGlite database for a test (not migrated): a copy of `emptyPgliteDirectory`, removed when closed. What
 * `url: 'memory://'` gives, in a fifth of the time.
 */
export async function openTestPglite(): Promise<Database> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-test-db-'))
  await beginPgliteDatabase(dataDir)
  const db = await openDatabase({ dataDir })
  return {
    ...db,
    async close() {
      await db.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

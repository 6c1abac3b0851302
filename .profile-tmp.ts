import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildBackend } from './backend/src/app'
import { loadConfig } from './backend/src/config'
const drafts = Number(process.argv[2] ?? 600)
const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-prof-'))
const backend = await buildBackend(loadConfig({ API_KEY: 'x'.repeat(20), DATA_DIR: dataDir, LOG_LEVEL: 'silent', LOAD_DEMO_CONTENT: 'false', JOB_POLL_MS: '100' }))
await backend.db.query(`INSERT INTO temp_articles (title, content, metadata) SELECT 'Maintenance note ' || n, 'Inspect valve ' || n || ' every spring before the pumps start. Replace the gasket when it cracks or weeps. Record the pressure reading of circuit ' || (n % 37) || ' in the plant log, with the date and the name of the inspector. A reading above the limit means the relief valve must be tested the same day.', '{}'::jsonb FROM generate_series(1, $1::int) AS n`, [drafts])
let maxGap = 0, last = performance.now()
const ticker = setInterval(() => { const now = performance.now(); maxGap = Math.max(maxGap, now - last); last = now }, 5)
const began = performance.now()
const job = await backend.services.articles.startPublish()
const done = await backend.jobs.waitFor(job.id, 3_600_000)
const seconds = (performance.now() - began) / 1000
clearInterval(ticker)
console.log(JSON.stringify({ drafts, status: done?.status, progress: done?.progress, seconds: seconds.toFixed(2), maxEventLoopGapMs: maxGap.toFixed(0) }))
await backend.close()

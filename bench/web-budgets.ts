/**
 * The web app's budgets of issue 4, measured on the built product (run `npm run build` first):
 *   - JavaScript shipped to the Ask page: the gzip size of every script /ask loads (entry, root, route chunks and
 *     the shared chunks they import, plus the route manifest), budget 120 KB;
 *   - Ask server-rendered: p50 time of a GET /ask (full document) on loopback, backend on the same machine, budget 50 ms.
 *
 *   npx tsx bench/web-budgets.ts [--requests 300] [--warmup 30] [--url http://127.0.0.1:3000]
 *
 * Without --url it starts the product (scripts/start.mjs: backend on PGlite + web server) on free loopback ports with
 * a fresh data directory and stops it afterwards. Results: printed, and bench/results/web-budgets.json.
 * Exits with 1 when a budget is exceeded.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PUBLIC_DIR = path.join(ROOT, 'public')
const BUILD_DIR = path.join(PUBLIC_DIR, 'build')
const RESULTS_FILE = path.join(ROOT, 'bench', 'results', 'web-budgets.json')
const JS_BUDGET_BYTES = 120 * 1024
const SSR_P50_BUDGET_MS = 50

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '30' },
    url: { type: 'string' },
  },
})

interface ScriptSize {
  url: string
  bytes: number
  gzipBytes: number
}

/** gzip as the server sends it (zlib's default level, as the compression middleware of remix-serve uses). */
function gzipSize(content: Buffer | string): number {
  return gzipSync(content).length
}

/** Every script URL the document loads: module preloads, script tags and the imports of inline module scripts. */
export function scriptUrlsOf(html: string): { urls: string[]; inlineScripts: string[] } {
  const urls = new Set<string>()
  for (const match of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/g)) {
    const href = /href="([^"]+)"/.exec(match[0])?.[1]
    if (href) urls.add(href)
  }
  const inlineScripts: string[] = []
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const src = /src="([^"]+)"/.exec(match[1])?.[1]
    if (src) urls.add(src)
    else if (match[2].trim()) inlineScripts.push(match[2])
  }
  for (const script of inlineScripts) {
    for (const match of script.matchAll(/(?:import\s*(?:[\w*{}\s,]+from\s*)?|import\()\s*["']([^"']+\.js)["']/g)) urls.add(match[1])
  }
  return { urls: [...urls].filter((url) => url.startsWith('/build/')), inlineScripts }
}

function sizeOfBuildFile(url: string): ScriptSize {
  const file = path.join(PUBLIC_DIR, url)
  const content = readFileSync(file)
  return { url, bytes: content.length, gzipBytes: gzipSize(content) }
}

/**
 * The same set from the build manifest alone: entry, root, dashboard layout and Ask with their imports. (With lazy
 * route discovery the manifest itself is inlined in the document, not loaded as a file.)
 */
function scriptsFromManifest(): string[] {
  const manifestFile = readdirSync(BUILD_DIR).find((name) => /^manifest-[\w-]+\.js$/.test(name))
  if (!manifestFile) throw new Error('No manifest in public/build: run npm run build first')
  const source = readFileSync(path.join(BUILD_DIR, manifestFile), 'utf8')
  const manifest = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as {
    entry: { module: string; imports?: string[] }
    routes: Record<string, { module: string; imports?: string[] }>
  }
  const askRoutes = ['root', 'routes/_dashboard+/_layout', 'routes/_dashboard+/ask']
  const urls = new Set<string>([manifest.entry.module, ...(manifest.entry.imports ?? [])])
  for (const id of askRoutes) {
    const route = manifest.routes[id]
    if (!route) throw new Error(`The manifest has no route ${id}`)
    urls.add(route.module)
    for (const url of route.imports ?? []) urls.add(url)
  }
  return [...urls]
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

async function waitFor(url: string, child: ChildProcess) {
  for (let attempt = 0; attempt < 900; attempt++) {
    if (child.exitCode !== null) throw new Error(`The product exited with code ${child.exitCode}`)
    try {
      const response = await fetch(url)
      await response.arrayBuffer()
      if (response.ok) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${url} did not answer`)
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuSecondsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}

/** The processes start.mjs runs (backend first, then the web server), from /proc (Linux). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

async function startProduct(): Promise<{ baseUrl: string; processes: { name: string; pid: number }[]; stop(): Promise<void> }> {
  const [port, apiPort] = [await freePort(), await freePort()]
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-web-budgets-'))
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), API_PORT: String(apiPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn', SPONSOR_THEME: 'default' },
    // remix-serve logs every request on stdout; the timings must not wait on a pipe nobody reads.
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const baseUrl = `http://127.0.0.1:${port}`
  await waitFor(`${baseUrl}/ask`, child)
  const [backend, web] = childrenOf(child.pid as number)
  return {
    baseUrl,
    processes: backend && web ? [{ name: 'web server', pid: web }, { name: 'backend', pid: backend }] : [],
    async stop() {
      const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
      child.kill('SIGTERM')
      await exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))
  return sorted[index]
}

/** Time to the last byte of the server-rendered Ask document, one request at a time. */
async function timeAsk(baseUrl: string, requests: number, warmup: number) {
  const timings: number[] = []
  for (let index = 0; index < warmup + requests; index++) {
    const started = performance.now()
    const response = await fetch(`${baseUrl}/ask`, { headers: { 'accept-encoding': 'identity' } })
    const body = await response.text()
    const elapsed = performance.now() - started
    if (!response.ok || !body.includes('</html>')) throw new Error(`GET /ask answered ${response.status}`)
    if (index >= warmup) timings.push(elapsed)
  }
  const sorted = [...timings].sort((a, b) => a - b)
  return {
    requests,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    mean: timings.reduce((sum, value) => sum + value, 0) / timings.length,
    min: sorted[0],
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const ms = (value: number) => `${value.toFixed(1)} ms`

if (!existsSync(BUILD_DIR)) throw new Error('public/build is missing: run npm run build first')
const product = values.url ? { baseUrl: values.url.replace(/\/$/, ''), processes: [], stop: async () => undefined } : await startProduct()
try {
  const html = await (await fetch(`${product.baseUrl}/ask`)).text()
  const { urls, inlineScripts } = scriptUrlsOf(html)
  const scripts = urls.map(sizeOfBuildFile).sort((a, b) => b.gzipBytes - a.gzipBytes)
  const scriptGzip = scripts.reduce((sum, script) => sum + script.gzipBytes, 0)
  const scriptRaw = scripts.reduce((sum, script) => sum + script.bytes, 0)
  const inlineGzip = gzipSize(inlineScripts.join('\n'))
  const manifestUrls = scriptsFromManifest()
  const manifestGzip = manifestUrls.map(sizeOfBuildFile).reduce((sum, script) => sum + script.gzipBytes, 0)
  const missingFromPage = manifestUrls.filter((url) => !urls.includes(url))
  const extraOnPage = urls.filter((url) => !manifestUrls.includes(url))

  // CPU time per request of each process: unlike wall time, it hardly changes when other work shares the machine.
  const cpuBefore = product.processes.map((process) => cpuSecondsOf(process.pid))
  const timing = await timeAsk(product.baseUrl, Number(values.requests), Number(values.warmup))
  const cpuPerRequest = product.processes.map((process, index) => {
    const [before, after] = [cpuBefore[index], cpuSecondsOf(process.pid)]
    return { name: process.name, ms: before === null || after === null ? null : ((after - before) * 1000) / (timing.requests + Number(values.warmup)) }
  })

  console.log(`JavaScript loaded by /ask (${scripts.length} files):`)
  for (const script of scripts) console.log(`  ${kb(script.gzipBytes).padStart(9)} gzip  ${kb(script.bytes).padStart(9)} raw  ${script.url}`)
  console.log(`  ${kb(scriptGzip).padStart(9)} gzip  ${kb(scriptRaw).padStart(9)} raw  total of the script files`)
  console.log(`  ${kb(inlineGzip).padStart(9)} gzip  inline scripts of the document (route data and hydration context)`)
  console.log(
    `  cross-check from the build manifest (entry, root, _layout, ask and their imports): ${kb(manifestGzip)} gzip` +
      `${missingFromPage.length ? `; not on the page: ${missingFromPage.join(', ')}` : ''}${extraOnPage.length ? `; only on the page: ${extraOnPage.join(', ')}` : ''}`,
  )
  console.log(`Ask server render, ${timing.requests} sequential GETs after ${values.warmup} warm-up (${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}):`)
  console.log(`  p50 ${ms(timing.p50)}  p90 ${ms(timing.p90)}  p99 ${ms(timing.p99)}  mean ${ms(timing.mean)}  min ${ms(timing.min)}`)
  if (cpuPerRequest.length) console.log(`  CPU per request: ${cpuPerRequest.map((entry) => `${entry.name} ${entry.ms === null ? 'n/a' : ms(entry.ms)}`).join(', ')}`)
  const isJsWithin = scriptGzip + inlineGzip <= JS_BUDGET_BYTES
  const isSsrWithin = timing.p50 <= SSR_P50_BUDGET_MS
  console.log(`Budgets: JavaScript ${kb(scriptGzip + inlineGzip)} of ${kb(JS_BUDGET_BYTES)} ${isJsWithin ? 'OK' : 'OVER'}; Ask p50 ${ms(timing.p50)} of ${ms(SSR_P50_BUDGET_MS)} ${isSsrWithin ? 'OK' : 'OVER'}`)

  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true })
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        measuredAt: new Date().toISOString(),
        machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadAverage: loadavg()[0] },
        javascript: { files: scripts, scriptGzipBytes: scriptGzip, inlineGzipBytes: inlineGzip, totalGzipBytes: scriptGzip + inlineGzip, budgetBytes: JS_BUDGET_BYTES },
        askServerRender: { ...timing, cpuPerRequest, budgetP50Ms: SSR_P50_BUDGET_MS },
      },
      null,
      2,
    )}\n`,
  )
  process.exitCode = isJsWithin && isSsrWithin ? 0 : 1
} finally {
  await product.stop()
}

import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'

// scripts/start.mjs starts the backend and the web server as its children and, on SIGTERM or SIGINT, stops them: it
// passes the signal on, waits for them, kills one still running after STOP_GRACE_MS, and exits once they are gone.
// These tests run it as `npm start` does, on free ports with a data directory of their own, and read its children
// from /proc (Linux, as the product's machines and CI). They need the build (`npm run build`), as CI makes it first.

const ROOT = path.resolve(import.meta.dirname, '..')
const BUILT = ['build/backend/main.js', 'build/server/index.js']

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Whether something accepts connections on the port. */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** A process as /proc shows it: its parent, its state, and when it started (a PID used again is another process). */
function processInfo(pid: number): { ppid: number; state: string; startTime: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (2nd field) is in parentheses and may hold spaces: the fields after it are split.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0], ppid: Number(fields[1]), startTime: fields[19] }
  } catch {
    return null
  }
}

/** Every process below `pid`, with its command line. */
function descendantsOf(pid: number): { pid: number; startTime: string; command: string }[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .map((candidate) => ({ pid: candidate, info: processInfo(candidate) }))
  const found: { pid: number; startTime: string; command: string }[] = []
  const parents = [pid]
  while (parents.length) {
    const parent = parents.pop()!
    for (const { pid: child, info } of all) {
      if (info?.ppid !== parent) continue
      let command = ''
      try {
        command = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
      } catch {
        // gone meanwhile
      }
      found.push({ pid: child, startTime: info.startTime, command })
      parents.push(child)
    }
  }
  return found
}

/** Whether that process (the same one, not a later one with its PID) still runs; a zombie has stopped. */
function isRunning(process: { pid: number; startTime: string }) {
  const info = processInfo(process.pid)
  return info !== null && info.startTime === process.startTime && info.state !== 'Z'
}

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

interface Started {
  start: ChildProcess
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>
  output: () => string
  webPort: number
  apiPort: number
  children: { pid: number; startTime: string; command: string }[]
}

/** How start.mjs ended, or a failure once `timeoutMs` has passed without it ending (cleaned up after the test). */
function exitWithin(product: Started, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`start.mjs still running ${timeoutMs} ms after the signal:\n${product.output()}`)), timeoutMs)
  })
  return Promise.race([product.exited, late]).finally(() => clearTimeout(timer))
}

let running: Started | null = null
const directories: string[] = []

/** Starts the product with start.mjs and resolves once it says both addresses, and both answer. */
async function startProduct(extraEnv: Record<string, string> = {}): Promise<Started> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-start-'))
  directories.push(dataDir)
  const [webPort, apiPort] = [await freePort(), await freePort()]
  const start = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    // A process group of its own, so that cleaning up after a failure reaches whatever it started, and only that.
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(webPort),
      API_PORT: String(apiPort),
      DATA_DIR: dataDir,
      LOAD_DEMO_CONTENT: 'false',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  start.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  start.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    start.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  )
  const started: Started = { start, exited, output: () => output, webPort, apiPort, children: [] }
  running = started
  await waitUntil(() => {
    if (start.exitCode !== null || start.signalCode !== null) throw new Error(`start.mjs exited while starting:\n${output}`)
    return output.includes('Backend API:')
  }, STARTUP_WAIT_MS, 'start.mjs printing both addresses')
  for (const port of [webPort, apiPort]) {
    const answer = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(answer.status, `port ${port}`).toBe(200)
  }
  started.children = descendantsOf(start.pid!)
  return started
}

beforeAll(() => {
  for (const file of BUILT) expect(existsSync(path.join(ROOT, file)), `${file} is missing: run \`npm run build\` first`).toBe(true)
  expect(existsSync('/proc/self/stat'), 'these tests read processes from /proc (Linux)').toBe(true)
})

afterEach(async () => {
  // After a failure nothing it started may be left running: the whole group is killed.
  if (running && running.start.exitCode === null && running.start.signalCode === null) {
    try {
      process.kill(-running.start.pid!, 'SIGKILL')
    } catch {
      // gone already
    }
    await running.exited
  }
  for (const child of running?.children ?? []) {
    if (isRunning(child)) process.kill(child.pid, 'SIGKILL')
  }
  running = null
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

// Starting is waited for, not timed: on a busy machine (two cores, load ≈ 17) the product took over a minute to start.
const STARTUP_WAIT_MS = 150_000

describe('npm start (scripts/start.mjs) stops what it started', { timeout: STARTUP_WAIT_MS + 90_000 }, () => {
  it('on SIGTERM, stops the backend and the web server and exits, long before the grace period', async () => {
    // A grace period far longer than the test waits: the children stop on the signal passed on, not by being killed.
    const product = await startProduct({ STOP_GRACE_MS: '60000' })
    const commands = product.children.map((child) => child.command)
    expect(commands).toHaveLength(2)
    expect(commands).toEqual(expect.arrayContaining([expect.stringContaining('build/backend/main.js'), expect.stringContaining('scripts/web-server.mjs')]))

    const sentAt = Date.now()
    product.start.kill('SIGTERM')
    const { code, at } = await exitWithin(product, 10_000)
    expect(code, product.output()).toBe(0)
    expect(at - sentAt).toBeLessThan(10_000)
    // It exits once its children have: none is left, and neither address answers.
    expect(product.children.filter(isRunning)).toEqual([])
    expect(await isListening(product.webPort)).toBe(false)
    expect(await isListening(product.apiPort)).toBe(false)
  })

  it('on SIGINT (Ctrl-C) too, and kills a child that ignores the SIGTERM passed on once STOP_GRACE_MS has passed', async () => {
    // The web server is made deaf to SIGTERM by a module loaded before it (start.mjs passes NODE_OPTIONS on). Only
    // start.mjs gets the SIGINT here (its own process group), as from `kill -INT` or a container runtime.
    const directory = mkdtempSync(path.join(tmpdir(), 'kb-start-deaf-'))
    directories.push(directory)
    const deaf = path.join(directory, 'ignore-sigterm.mjs')
    writeFileSync(
      deaf,
      [
        "if (process.argv[1]?.endsWith('web-server.mjs')) {",
        "  process.on('SIGTERM', () => console.error('web server ignoring SIGTERM'))",
        "  for (const method of ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']) {",
        '    const original = process[method].bind(process)',
        "    process[method] = (event, listener) => (event === 'SIGTERM' ? process : original(event, listener))",
        '  }',
        '}',
      ].join('\n'),
    )
    const graceMs = 2_000
    const product = await startProduct({ STOP_GRACE_MS: String(graceMs), NODE_OPTIONS: `--import ${pathToFileURL(deaf).href}` })
    const backend = product.children.find((child) => child.command.includes('build/backend/main.js'))
    const webServer = product.children.find((child) => child.command.includes('scripts/web-server.mjs'))
    expect(backend).toBeDefined()
    expect(webServer).toBeDefined()

    const sentAt = Date.now()
    product.start.kill('SIGINT')
    // The backend stops at once; the web server does not, and start.mjs waits for it.
    await waitUntil(() => !isRunning(backend!), graceMs - 500, 'the backend stopping on the SIGTERM passed on')
    expect(isRunning(webServer!)).toBe(true)
    expect(await isListening(product.webPort)).toBe(true)

    const { code, at } = await exitWithin(product, graceMs + 5_000)
    expect(product.output()).toContain('web server ignoring SIGTERM')
    expect(code, product.output()).toBe(0)
    expect(at - sentAt).toBeGreaterThanOrEqual(graceMs - 100)
    expect(at - sentAt).toBeLessThan(graceMs + 5_000)
    expect(product.children.filter(isRunning)).toEqual([])
    expect(await isListening(product.webPort)).toBe(false)
    expect(await isListening(product.apiPort)).toBe(false)
  })
})

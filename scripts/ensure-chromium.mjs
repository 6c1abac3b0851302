// The end-to-end tests drive Debian's Chromium (Playwright never downloads a browser here).
// Installs it with apt-get when it is missing and we may (root, or password-less sudo); otherwise says how.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const executable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (existsSync(executable)) process.exit(0)

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
const hasSudo = !isRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0
if (!isRoot && !hasSudo) {
  console.error(`Chromium is missing at ${executable}. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`)
  process.exit(1)
}

console.log('Installing Debian chromium for the end-to-end tests…')
const prefix = isRoot ? [] : ['sudo', '-n']
const run = (args) => {
  const [command, ...rest] = [...prefix, ...args]
  execFileSync(command, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
}
run(['apt-get', 'update'])
run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium'])
if (!existsSync(executable)) {
  console.error(`chromium was installed but ${executable} is still missing`)
  process.exit(1)
}

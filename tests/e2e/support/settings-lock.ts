import { mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * Bot and agent settings are one record each, shared by the js and no-js runs; a lock (a directory, created
 * atomically) keeps the two runs from saving over each other, or from running an agent the other has turned off.
 * Locks are taken in one order ('agent' before 'government-agent'), so two never wait on each other.
 */
export async function withSettingsLock<T>(name: string, run: () => Promise<T>): Promise<T> {
  const lock = path.join(process.env.E2E_DATA_DIR ?? tmpdir(), `settings-lock-${name}`)
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (attempt > 600) throw new Error(`settings lock ${name} stayed taken`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    return await run()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

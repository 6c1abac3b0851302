import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // The web app's own imports (~/ is app/, as in tsconfig.json), for tests of its server modules.
  resolve: { alias: [{ find: /^~\//, replacement: `${fileURLToPath(new URL('./app/', import.meta.url))}` }] },
  test: {
    include: ['backend/**/*.test.ts', 'contracts/**/*.test.ts', 'app/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/*.test.ts'],
    // Generous: tests that restart PGlite backends and hash passwords run long on a busy 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each file starts its own backend(s); two at a time suits a 2-core machine.
    maxWorkers: 2,
    minWorkers: 1,
  },
})

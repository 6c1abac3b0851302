import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['backend/**/*.test.ts', 'contracts/**/*.test.ts', 'app/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Each file starts its own backend(s); two at a time suits a 2-core machine.
    maxWorkers: 2,
    minWorkers: 1,
  },
})

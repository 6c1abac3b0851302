// Bundles the backend service into build/backend/main.js and its job worker into build/backend/worker.js (dependencies
// stay in node_modules), and copies the demo articles.
import { cp, rm } from 'node:fs/promises'
import { build } from 'esbuild'

await rm('build/backend', { recursive: true, force: true })
await build({
  entryPoints: ['backend/src/main.ts', 'backend/src/worker.ts'],
  outdir: 'build/backend',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
})
await cp('backend/src/demo/articles', 'build/backend/demo-articles', { recursive: true })
console.log('backend built into build/backend/main.js and build/backend/worker.js')

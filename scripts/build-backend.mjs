// Bundles the backend service into build/backend/main.js (dependencies stay in node_modules) and copies its demo articles.
import { cp, rm } from 'node:fs/promises'
import { build } from 'esbuild'

await rm('build/backend', { recursive: true, force: true })
await build({
  entryPoints: ['backend/src/main.ts'],
  outfile: 'build/backend/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
})
await cp('backend/src/demo/articles', 'build/backend/demo-articles', { recursive: true })
console.log('backend built into build/backend/main.js')

// Copies the sponsor themes' fonts (app/sponsors/shipped-fonts.mjs) from their npm packages into public/fonts/, so
// the product serves them itself: for each family one stylesheet, public/fonts/<key>.css, whose @font-face rules point
// at /fonts/<key>/*.woff2, and the font's licence beside the files. Browsers fetch only the subsets (unicode-range) a
// page uses, and only for the families the chosen theme names. Run by `npm run build`.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { SHIPPED_FONT_LIST as fonts } from '../app/sponsors/shipped-fonts.mjs'

const require = createRequire(import.meta.url)
const out = 'public/fonts'
await rm(out, { recursive: true, force: true })

for (const font of fonts) {
  const packageDir = path.dirname(require.resolve(`${font.package}/package.json`))
  const stylesheets = ['wght.css', 'wght-italic.css']
  let css = `/* ${font.family}, from ${font.package} (licence: /fonts/${font.key}/LICENSE). */\n`
  await mkdir(path.join(out, font.key), { recursive: true })
  for (const name of stylesheets) {
    let source
    try {
      source = await readFile(path.join(packageDir, name), 'utf8')
    } catch {
      continue // not every family has italics
    }
    const files = [...source.matchAll(/url\(\.\/files\/([^)]+\.woff2)\)/g)].map((match) => match[1])
    for (const file of files) await copyFile(path.join(packageDir, 'files', file), path.join(out, font.key, file))
    css += source.replaceAll('url(./files/', `url(/fonts/${font.key}/`)
  }
  if (!css.includes('@font-face')) throw new Error(`${font.package} has no variable-weight stylesheet`)
  await copyFile(path.join(packageDir, 'LICENSE'), path.join(out, font.key, 'LICENSE'))
  await writeFile(path.join(out, `${font.key}.css`), css)
}
console.log(`fonts copied into ${out}/: ${fonts.map((font) => font.key).join(', ')}`)

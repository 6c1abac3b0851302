import { chromium } from '@playwright/test'
import { buildBackend } from './app'
import { loadConfig } from './config'
const backend = await buildBackend(loadConfig({ API_KEY: 'docs-check-key-123', DATABASE_URL: 'memory://', LOG_LEVEL: 'silent', LOAD_DEMO_CONTENT: 'false', RUN_WORKER: 'false' }))
const address = await backend.app.listen({ host: '127.0.0.1', port: 0 })
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage()
const problems: string[] = []
page.on('console', (m) => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text()) })
await page.goto(`${address}/docs/`)
await page.waitForSelector('.opblock', { timeout: 30000 })
console.log('opblocks', await page.locator('.opblock').count())
console.log('problems', problems)
await browser.close()
await backend.close()

import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'

const ROUTES_DIR = fileURLToPath(new URL('../../../app/routes', import.meta.url))
const ROUTE_MODULE = /\.(tsx|ts|jsx|js)$/
const NOT_A_ROUTE = /\.(css|test|spec|server|client)\.[jt]sx?$/
// Steps of the sign-in provider's redirect dance, not screens anyone looks at.
const NOT_A_SCREEN = [/^\/auth(\/|$)/, /^\/logout$/]

/** A screen to scan or photograph: a path, or a path pattern with parameters resolved from a link on `listPath`. */
export interface Screen {
  /** Readable and file-name safe, e.g. `articles-new`. */
  slug: string
  /** The path, or a pattern such as `/articles/$id/edit` when `listPath` is set. */
  path: string
  /** For a pattern: the page that links to an instance of it. */
  listPath?: string
  /** For a pattern: paths of other screens it also matches (`/articles/new` for `/articles/$id`). */
  otherPaths?: string[]
  /**
   * For a pattern: makes an instance through the UI when the list page has none yet; gives the address it reached
   * when the list page does not link to it (an import's progress page).
   */
  seed?: (page: Page) => Promise<string | void>
  /** Brings the page into a state worth looking at after it was opened (for example an answer on Ask). */
  prepare?: (page: Page) => Promise<void>
  /** The HTTP status the screen answers with (200 unless said). */
  status?: number
}

/**
 * Every page route with a UI under app/routes (remix-flat-routes hybrid convention), found when the specs load, so
 * screens added later are scanned and photographed without a change here. Resource routes (no default export) and
 * layouts are left out; a route with parameters is opened through the first link to it on the nearest list page.
 */
export function discoverScreens(routesDir = ROUTES_DIR): Screen[] {
  const byPath = new Map<string, Screen>()
  for (const file of listFiles(routesDir)) {
    const relative = path.relative(routesDir, file)
    if (!ROUTE_MODULE.test(relative) || NOT_A_ROUTE.test(relative)) continue
    const urlPath = routePath(relative)
    if (urlPath === null || NOT_A_SCREEN.some((pattern) => pattern.test(urlPath))) continue
    // The catch-all (splat) route is the not-found page, checked as a state of its own below.
    if (urlPath.split('/').includes('$')) continue
    if (!/export\s+default\b/.test(readFileSync(file, 'utf8'))) continue
    if (byPath.has(urlPath)) continue
    const firstParameter = urlPath.split('/').findIndex((segment) => segment.startsWith('$'))
    const listPath = firstParameter === -1 ? undefined : urlPath.split('/').slice(0, firstParameter).join('/') || '/'
    byPath.set(urlPath, { slug: slugOf(urlPath), path: urlPath, listPath })
  }
  const staticPaths = [...byPath.values()].filter((screen) => !screen.listPath).map((screen) => screen.path)
  for (const screen of byPath.values()) {
    if (!screen.listPath) continue
    screen.otherPaths = staticPaths
    screen.seed = SEEDS[screen.path]
  }
  return [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path))
}

/**
 * The screens plus states that matter beyond a fresh visit: an answer on Ask (first, so the logs have an entry whose
 * detail page can be opened) and the not-found pages.
 */
export function screensToCheck(): Screen[] {
  return [
    {
      slug: 'ask-with-answer',
      path: '/ask',
      prepare: (page) => askOnScreen(page, 'How do I add an article?'),
    },
    ...discoverScreens(),
    { slug: 'article-not-found', path: '/articles/987654321', status: 404 },
    { slug: 'page-not-found', path: '/no-such-page', status: 404 },
  ]
}

async function askOnScreen(page: Page, question: string) {
  await page.goto('/ask')
  await page.getByRole('textbox', { name: 'Question', exact: true }).fill(question, { timeout: 10_000 })
  await page.getByRole('button', { name: 'Ask', exact: true }).click({ timeout: 10_000 })
  await page.getByRole('region', { name: 'Answer' }).waitFor({ timeout: 30_000 })
}

// Instances the demo data lacks, made through the same labels as the screens' own specs use.
const SEEDS: Record<string, NonNullable<Screen['seed']>> = {
  '/articles/drafts/$id': async (page) => {
    await page.goto('/articles/new')
    await page.getByLabel('Title').fill(`Screen check draft ${Date.now()}`, { timeout: 10_000 })
    await page.getByLabel('Content').fill('A draft made to open the draft screen in the accessibility scan and the screenshots.', { timeout: 10_000 })
    await page.getByRole('button', { name: 'Save draft' }).click({ timeout: 10_000 })
    await page.waitForURL(/\/articles\/drafts/, { timeout: 15_000 })
  },
  '/articles/import/$taskId': async (page) => {
    await page.goto('/articles/import')
    await page.getByLabel('Files', { exact: true }).setInputFiles({
      name: 'screen-check.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Screen check import\n\nA file uploaded to open the import progress screen in the scan and the screenshots.\n'),
    })
    await page.getByRole('button', { name: 'Upload', exact: true }).click({ timeout: 10_000 })
    await page.waitForURL(/\/articles\/import\/[0-9a-f-]{36}$/, { timeout: 15_000 })
    return new URL(page.url()).pathname
  },
  // The reader: the first source of an answer, opened where the answer links it.
  '/read/$id': async (page) => {
    await askOnScreen(page, 'How do I add an article?')
    const source = page.getByRole('region', { name: 'Answer' }).locator('a[href^="/read/"]').first()
    const href = await source.getAttribute('href', { timeout: 15_000 })
    if (!href) throw new Error('the answer links no source to read')
    return href
  },
  // A saved answer as its asker reads it: ask, save it from the log's page, open /saved/<log id>.
  '/saved/$id': async (page) => {
    const question = `How do I publish drafts? (screen check ${Date.now()})`
    const asked = await page.request.post('/ask', { form: { question }, maxRedirects: 0 })
    if (asked.status() !== 302) throw new Error(`asking answered ${asked.status()}`)
    await page.goto('/logs')
    await page.getByRole('table', { name: 'Query logs' }).getByRole('link', { name: question, exact: true }).click({ timeout: 15_000 })
    await page.waitForURL(/\/logs\/\d+$/, { timeout: 15_000 })
    const logId = new URL(page.url()).pathname.split('/').pop()
    await page.getByRole('form', { name: 'Save to my queries' }).getByRole('button', { name: 'Save query' }).click({ timeout: 10_000 })
    await page.getByRole('status').filter({ hasText: 'Query saved' }).waitFor({ timeout: 15_000 })
    return `/saved/${logId}`
  },
  '/settings/templates/$id': async (page) => {
    await page.goto('/settings/templates/new')
    await page.getByLabel('Name', { exact: true }).fill(`Screen check template ${Date.now()}`, { timeout: 10_000 })
    await page.getByLabel('Section 1 title').fill('Summary', { timeout: 10_000 })
    await page.getByRole('button', { name: 'Add template' }).click({ timeout: 10_000 })
    await page.waitForURL(/\/settings\/templates$/, { timeout: 15_000 })
  },
}

async function findInstance(page: Page, screen: Screen): Promise<string | undefined> {
  await page.goto(screen.listPath as string)
  const pattern = new RegExp(`^${screen.path.split('/').map((segment) => (segment.startsWith('$') ? '[^/?#]+' : escapeRegExp(segment))).join('/')}$`)
  const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))
  return hrefs.find((href) => pattern.test(href) && !screen.otherPaths?.includes(href))
}

/**
 * Where each pattern screen was last found or made in this worker. The themed web servers share one backend (and,
 * in demo mode, the signed-in administrator), so an address found through one server opens on the others: the list
 * page is read, and a record made, once per worker rather than once per theme and visit.
 */
const instances = new Map<string, string>()

/** Opens a screen (resolving a pattern through its list page) and prepares it; false when no instance exists yet. */
export async function openScreen(page: Page, screen: Screen): Promise<{ isOpen: boolean; status: number | null; reason?: string }> {
  let target = screen.path
  if (screen.listPath) {
    let match = instances.get(screen.path) ?? (await findInstance(page, screen))
    if (!match && screen.seed) {
      try {
        match = (await screen.seed(page)) || (await findInstance(page, screen))
      } catch (error) {
        return { isOpen: false, status: null, reason: `could not make one for ${screen.path}: ${(error as Error).message.split('\n')[0]}` }
      }
    }
    if (!match) return { isOpen: false, status: null, reason: `no link to ${screen.path} on ${screen.listPath}` }
    target = match
  }
  let response = await page.goto(target)
  // Another spec running in parallel may delete or publish the record after it was found: find or make another.
  if (response?.status() === 404 && screen.listPath) {
    instances.delete(screen.path)
    const fresh = (await findInstance(page, screen)) || (screen.seed && (await screen.seed(page))) || (await findInstance(page, screen))
    if (fresh) {
      target = fresh
      response = await page.goto(fresh)
    }
  }
  if (screen.listPath && response?.status() === 200) instances.set(screen.path, target)
  await screen.prepare?.(page)
  return { isOpen: true, status: response?.status() ?? null }
}

/** The sponsor-themed web servers of playwright.config.ts (the default one first). */
export function themeServers(): { key: string; baseURL: string }[] {
  const configured = process.env.E2E_THEME_SERVERS
  if (configured) return JSON.parse(configured) as { key: string; baseURL: string }[]
  return [{ key: 'default', baseURL: `http://127.0.0.1:${process.env.E2E_WEB_PORT ?? 3310}` }]
}

/** The URL path of a route module, or null for a layout or a file that is not a route. */
export function routePath(relativeFile: string): string | null {
  const parts = relativeFile.replace(ROUTE_MODULE, '').split(path.sep)
  const fileName = parts.pop() as string
  const segments: string[] = []
  for (const directory of parts) {
    if (directory.endsWith('+')) segments.push(...splitSegments(directory.slice(0, -1)))
    // A plain folder is a route of its own whose module is route/index/_index; other files in it are colocated.
    else if (['route', 'index', '_index'].includes(fileName)) segments.push(...splitSegments(directory))
    else return null
  }
  const fileSegments = splitSegments(fileName)
  if (fileSegments.at(-1) === '_layout') return null
  segments.push(...fileSegments)
  const urlSegments = segments
    .filter((segment) => !['route', 'index', '_index'].includes(segment))
    .filter((segment) => !segment.startsWith('_') && !segment.startsWith('('))
    .map((segment) => segment.replace(/_$/, '').replace(/\[(.*?)\]/g, '$1'))
  return `/${urlSegments.join('/')}`
}

function splitSegments(name: string): string[] {
  // Dots inside [] are literal (`query-logs[.]csv`), the others separate segments.
  return name.match(/(?:\[[^\]]*\]|[^.])+/g) ?? []
}

function listFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry)
    return statSync(full).isDirectory() ? listFiles(full) : [full]
  })
}

function slugOf(urlPath: string): string {
  return urlPath === '/' ? 'home' : urlPath.slice(1).replaceAll('$', '').replace(/[^a-z0-9]+/gi, '-').toLowerCase()
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

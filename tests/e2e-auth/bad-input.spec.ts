import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { E2E, expect, test } from './support'

// Every form action of the web app answers bad input with a 4xx and says what is wrong: JSON bodies, broken
// multipart, wrong content types, random fields and values, huge values, posts from another site. Never a 5xx.
// Sent as the administrator (the deepest any request gets), as a page post and as a data request (Remix's scripts).

const ROUTES_DIR = fileURLToPath(new URL('../../app/routes', import.meta.url))
/** Random bodies per action route: bounded so the suite stays quick; raise E2E_PROPERTY_RUNS for a deeper search. */
const RUNS_PER_ROUTE = Number(process.env.E2E_PROPERTY_RUNS) || 25
/** Ids no record has: a route with an id in its address is sent bad input, never a change to something real. */
const NO_SUCH_ID = '2147483000'

/** Each route file with an action, and an address its action answers (index routes need `?index`). */
const ACTION_ROUTES: Record<string, { path: string; signedIn: boolean }> = {
  '_auth+/auth.oidc.tsx': { path: '/auth/oidc', signedIn: false },
  '_auth+/login.tsx': { path: '/login', signedIn: false },
  // Never with the administrator's session: signing out would end it.
  '_auth+/logout.tsx': { path: '/logout', signedIn: false },
  '_auth+/password.tsx': { path: '/password', signedIn: false },
  '_auth+/register.tsx': { path: '/register', signedIn: false },
  // Its fields are not among FIELD_NAMES: no random body reaches the backend as a wrong current password (a failed sign-in).
  '_dashboard+/account.tsx': { path: '/account', signedIn: true },
  '_dashboard+/agent._index.tsx': { path: '/agent?index', signedIn: true },
  '_dashboard+/agent.government.tsx': { path: '/agent/government', signedIn: true },
  '_dashboard+/articles.$id_.delete.tsx': { path: `/articles/${NO_SUCH_ID}/delete`, signedIn: true },
  '_dashboard+/articles.$id_.edit.tsx': { path: `/articles/${NO_SUCH_ID}/edit`, signedIn: true },
  '_dashboard+/articles._index.tsx': { path: '/articles?index', signedIn: true },
  '_dashboard+/articles.drafts.$id.tsx': { path: `/articles/drafts/${NO_SUCH_ID}`, signedIn: true },
  '_dashboard+/articles.drafts._index.tsx': { path: '/articles/drafts?index', signedIn: true },
  '_dashboard+/articles.import._index.tsx': { path: '/articles/import?index', signedIn: true },
  // A task id no job has: the stop is refused as an unknown import.
  '_dashboard+/articles.import.$taskId.tsx': { path: '/articles/import/00000000-0000-4000-8000-000000000000', signedIn: true },
  '_dashboard+/articles.new.tsx': { path: '/articles/new', signedIn: true },
  '_dashboard+/api-keys.tsx': { path: '/api-keys', signedIn: true },
  '_dashboard+/ask.tsx': { path: '/ask', signedIn: true },
  '_dashboard+/logs.$id.tsx': { path: `/logs/${NO_SUCH_ID}`, signedIn: true },
  '_dashboard+/organisations.$id.tsx': { path: `/organisations/${NO_SUCH_ID}`, signedIn: true },
  '_dashboard+/organisations._index.tsx': { path: '/organisations?index', signedIn: true },
  '_dashboard+/saved.tsx': { path: '/saved', signedIn: true },
  '_dashboard+/settings._index.tsx': { path: '/settings?index', signedIn: true },
  '_dashboard+/settings.agent.tsx': { path: '/settings/agent', signedIn: true },
  '_dashboard+/settings.templates.$id.tsx': { path: `/settings/templates/${NO_SUCH_ID}`, signedIn: true },
  '_dashboard+/settings.templates._index.tsx': { path: '/settings/templates?index', signedIn: true },
  '_dashboard+/settings.templates.new.tsx': { path: '/settings/templates/new', signedIn: true },
  '_dashboard+/users.$id.tsx': { path: `/users/${NO_SUCH_ID}`, signedIn: true },
  '_dashboard+/users.invitations.tsx': { path: '/users/invitations', signedIn: true },
  '_dashboard+/users.new.tsx': { path: '/users/new', signedIn: true },
  'resources+/ask-stream.tsx': { path: '/resources/ask-stream', signedIn: true },
  'resources+/query-logs-dataset[.]csv.tsx': { path: '/resources/query-logs-dataset.csv', signedIn: true },
  'resources+/query-logs[.]csv.tsx': { path: '/resources/query-logs.csv', signedIn: true },
}

/** Route files (relative to app/routes) that export an action, as the build would find them. */
function routeFilesWithAnAction(dir = ROUTES_DIR): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(tsx|ts)$/.test(file) && !/\.(test|spec|css|server|client)\.tsx?$/.test(file))
    .filter((file) => /export\s+(async\s+function\s+action\b|const\s+action\b|function\s+action\b|\{[^}]*\baction\b[^}]*\})/.test(readFileSync(path.join(dir, file), 'utf8')))
    .map((file) => file.split(path.sep).join('/'))
    .sort()
}

const routeIdOf = (file: string) => `routes/${file.replace(/\.tsx?$/, '')}`

/** A posted body and what it is, for the report of a failing case. */
interface Body {
  kind: string
  contentType?: string
  data: string
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies

/** Field names the forms use, and some they do not. */
const FIELD_NAMES = [
  'intent', 'question', 'timezone', 'task', 'log_id', 'feedback', 'comment', 'title', 'content', 'id', 'ids', 'name', 'description',
  'command', 'template_id', 'username', 'password', 'password_again', 'email', 'firstName', 'lastName', 'cellphone', 'organization',
  'redirectTo', 'status', 'files', 'start_url', 'max_depth', 'max_pages', 'exclude_patterns', 'url', 'confirm', 'outcome', 'enabled',
  'role', 'group_id', 'organization_id', 'filter', 'publish_id', 'llm_model', 'max_iteration', 'semantic_firewall', 'sections[0].title',
  'sections[0].instructions', 'form_id', 'code', 'key_id', 'expires_in_days', 'note', '__proto__', 'constructor', '',
]
const INTENTS = [
  'run', 'cancel', 'feedback', 'favorite', 'favorite-delete', 'favorite-update', 'toggleBotInfo', 'comment-add', 'comment-update',
  'comment-delete', 'main-save', 'main-delete', 'delete', 'delete-all', 'publish', 'publish-all', 'publish-one', 'publish-selected',
  'update', 'upload', 'crawl', 'youtube', 'save', 'toggle_debug', 'draft', 'add', 'create', 'create-group', 'delete-group', 'update-group',
  'invite', 'rename', 'reset-link', 'revoke', 'set-password', 'enable', 'disable',
]
const ODD_VALUES = ['', ' ', '0', '-1', '1.5', 'NaN', '1e309', '2147483648', '99999999999999999999', 'true', 'on', 'null', '[]', '{}', '\u0000', '%00', '../../etc/passwd', '<script>alert(1)</script>', "' OR 1=1 --", '\u202e\ufeff', 'é'.repeat(3000)]

const value = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_VALUES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.string({ minLength: 20_000, maxLength: 60_000, unit: fc.constantFrom('a', 'é', ' ', '\n', '%') }) },
)
const fields = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 12 })), value), { maxLength: 8 })
const withIntent = fc.tuple(fc.option(fc.constantFrom(...INTENTS), { nil: undefined }), fields).map(([intent, rest]) => (intent ? [['intent', intent] as [string, string], ...rest] : rest))

const urlEncoded: fc.Arbitrary<Body> = withIntent.map((pairs) => ({
  kind: 'url-encoded fields',
  contentType: 'application/x-www-form-urlencoded',
  data: new URLSearchParams(pairs).toString(),
}))

/** A multipart body, well formed or broken in one of the ways a client or an attacker breaks it. */
const multipart: fc.Arbitrary<Body> = fc
  .tuple(withIntent, fc.constantFrom('well formed', 'no final boundary', 'no boundary parameter', 'empty boundary', 'other boundary', 'file parts', 'garbage'), fc.string({ unit: 'binary', maxLength: 200 }))
  .map(([pairs, how, garbage]) => {
    const boundary = 'x-boundary-4f2a'
    const parts = pairs.map(([name, text]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '')}"\r\n\r\n${text}\r\n`)
    if (how === 'file parts') parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${garbage}\r\n`)
    const whole = `${parts.join('')}--${boundary}--\r\n`
    const data = { 'no final boundary': parts.join(''), garbage }[how as string] ?? whole
    const type = {
      'no boundary parameter': 'multipart/form-data',
      'empty boundary': 'multipart/form-data; boundary=',
      'other boundary': 'multipart/form-data; boundary=not-the-one',
    }[how as string]
    return { kind: `multipart, ${how}`, contentType: type ?? `multipart/form-data; boundary=${boundary}`, data }
  })

const json: fc.Arbitrary<Body> = fc.json({ maxDepth: 3 }).map((text) => ({ kind: 'JSON', contentType: 'application/json', data: text }))

const wrongType: fc.Arbitrary<Body> = fc
  .tuple(fc.constantFrom(undefined, 'text/plain', 'application/xml', 'application/octet-stream', 'multipart/mixed; boundary=a', 'text/html', 'application/x-www-form-urlencodedX', 'garbage/;;;'), fc.string({ unit: 'binary', maxLength: 300 }))
  .map(([contentType, data]) => ({ kind: `content type ${contentType ?? '(none)'}`, contentType, data }))

const anyBody = fc.oneof({ weight: 4, arbitrary: urlEncoded }, { weight: 3, arbitrary: multipart }, { weight: 1, arbitrary: json }, { weight: 2, arbitrary: wrongType })

/** Bodies every action is sent, besides the random ones. */
const FIXED_BODIES: Body[] = [
  { kind: 'JSON object', contentType: 'application/json', data: '{"question":"What?","intent":"run","title":"x","content":"y"}' },
  { kind: 'JSON, broken', contentType: 'application/json', data: '{"question":' },
  { kind: 'multipart without a boundary', contentType: 'multipart/form-data', data: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n' },
  { kind: 'multipart with an empty boundary', contentType: 'multipart/form-data; boundary=', data: '--\r\n' },
  { kind: 'multipart without its final boundary', contentType: 'multipart/form-data; boundary=b', data: '--b\r\nContent-Disposition: form-data; name="intent"\r\n\r\nrun' },
  { kind: 'no content type', data: 'intent=run' },
  { kind: 'a 9 MB field', contentType: 'application/x-www-form-urlencoded', data: `content=${'a'.repeat(9 * 1024 * 1024)}` },
]

// ---------------------------------------------------------------------------------------------------------------
// Sending

let administrator: { cookie: string; at: number } | undefined

/** The administrator's session cookie, signed in again well before its token would need renewing. */
async function adminCookie(): Promise<string> {
  if (administrator && Date.now() - administrator.at < 30_000) return administrator.cookie
  const response = await fetch(`${E2E.web}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: E2E.web },
    body: new URLSearchParams({ username: 'admin', password: E2E.adminPassword, redirectTo: '/ask' }).toString(),
  })
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='))
  if (response.status !== 302 || !session) throw new Error(`The administrator could not sign in (${response.status})`)
  administrator = { cookie: session.split(';')[0], at: Date.now() }
  return administrator.cookie
}

interface Outcome {
  status: number
  contentType: string
  text: string
}

async function send(file: string, body: Body, asData: boolean): Promise<Outcome> {
  const route = ACTION_ROUTES[file]
  const url = new URL(route.path, E2E.web)
  if (asData) url.searchParams.set('_data', routeIdOf(file))
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: E2E.web,
      ...(body.contentType === undefined ? {} : { 'content-type': body.contentType }),
      ...(route.signedIn ? { cookie: await adminCookie() } : {}),
    },
    // A Blob without a type: fetch adds no content type of its own.
    body: body.contentType === undefined ? new Blob([body.data]) : body.data,
  }).catch((error: Error & { cause?: { code?: string } }) => {
    // A reset connection is no answer at all: as bad as a 5xx.
    throw new Error(`POST ${url.pathname}${url.search} with ${body.kind}: no answer (${error.cause?.code ?? error.message})`)
  })
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() }
}

/** A refusal names its problem: a JSON message or field errors, or a page with an alert or a marked field. */
function namesTheProblem(outcome: Outcome): boolean {
  if (outcome.contentType.includes('json')) {
    const strings: string[] = []
    const collect = (node: unknown): void => {
      if (typeof node === 'string') strings.push(node)
      else if (node && typeof node === 'object') for (const child of Object.values(node)) collect(child)
    }
    try {
      collect(JSON.parse(outcome.text))
    } catch {
      return false
    }
    return strings.some((text) => text.trim().length > 3)
  }
  if (outcome.contentType.includes('html')) return /role="alert"|aria-invalid="true"/.test(outcome.text)
  return outcome.text.trim().length > 3
}

function check(file: string, body: Body, asData: boolean, outcome: Outcome) {
  const what = `POST ${ACTION_ROUTES[file].path}${asData ? ' (data)' : ''} with ${body.kind}: ${outcome.status} ${outcome.text.slice(0, 300)}`
  expect(outcome.status, what).toBeLessThan(500)
  if (outcome.status >= 400) expect(namesTheProblem(outcome), what).toBe(true)
}

// ---------------------------------------------------------------------------------------------------------------

test.describe('Bad input to every form action', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== 'auth-js', 'requests only: the browser plays no part, once is enough')
  })

  test('the list of action routes is every route with an action', () => {
    expect(Object.keys(ACTION_ROUTES).sort()).toEqual(routeFilesWithAnAction())
  })

  test('JSON, broken multipart, no content type and oversized bodies get a 4xx that says why', async () => {
    test.setTimeout(120_000)
    for (const file of Object.keys(ACTION_ROUTES)) {
      for (const body of FIXED_BODIES) {
        for (const asData of [false, true]) check(file, body, asData, await send(file, body, asData))
      }
    }
  })

  test('random malformed, oversized and wrong-type bodies never get a 5xx', async () => {
    test.setTimeout(120_000 * Math.max(1, RUNS_PER_ROUTE / 25))
    for (const file of Object.keys(ACTION_ROUTES)) {
      await fc.assert(
        fc.asyncProperty(anyBody, fc.boolean(), async (body, asData) => check(file, body, asData, await send(file, body, asData))),
        { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      )
    }
  })

  test('crafted values are refused in plain words beside their field', async () => {
    /** The action's answer to a crafted form, as data (what it sends the page), or as the page a browser without scripts gets. */
    const refusal = async (file: string, fields: Record<string, string>, asData = true) => {
      const outcome = await send(file, { kind: 'crafted form', contentType: 'application/x-www-form-urlencoded', data: new URLSearchParams(fields).toString() }, asData)
      expect(outcome.status, `${file}: ${outcome.text.slice(0, 300)}`).toBe(400)
      return asData ? JSON.parse(outcome.text) : outcome.text
    }
    const person = { username: `crafted${Date.now().toString(36)}`, email: `crafted${Date.now().toString(36)}@example.org`, organization_id: '1', password: 'garden-path-42' }
    const chooseARole = 'Choose a role: administrator, editor or user'

    expect((await refusal('_dashboard+/users.new.tsx', { intent: 'add', ...person, role: 'root' })).result.error).toEqual({ role: [chooseARole] })
    expect(await refusal('_dashboard+/users.new.tsx', { intent: 'add', ...person, role: 'root' }, false)).toContain(chooseARole)
    expect((await refusal('_dashboard+/api-keys.tsx', { intent: 'create', name: 'Crafted', organization_id: '1', role: 'root' })).result.error).toEqual({ role: [chooseARole] })
    const organisation = '_dashboard+/organisations.$id.tsx'
    expect((await refusal(organisation, { intent: 'create-group', name: 'Reviewers', role: 'root' })).refusal.message).toBe(chooseARole)
    expect((await refusal(organisation, { intent: 'update-group', group_id: '1', name: 'Reviewers', role: 'root' })).refusal.message).toBe(chooseARole)

    // The rules of a password, each a sentence of its own.
    expect((await refusal('_dashboard+/users.$id.tsx', { intent: 'set-password', password: 'short' })).account.error).toBe(
      'Password must be at least 8 characters. Password must contain something besides letters, such as a digit.',
    )

    // A rule's message names its field by the label on screen, not as the API spells it (current_password).
    const longCurrent = { current_password: 'x'.repeat(1001), new_password: 'garden-path-43', new_password_again: 'garden-path-43' }
    const tooLongPage: string = await refusal('_dashboard+/account.tsx', longCurrent, false)
    const saidOnPage = [...tooLongPage.matchAll(/role="alert"[^>]*>([^<]*)</g)].map((match) => match[1])
    expect(saidOnPage).toEqual(['Current password is at most 1000 characters'])

    // A name of spaces is asked for as an empty one is.
    for (const name of ['', '   ']) {
      expect((await refusal('_dashboard+/organisations._index.tsx', { name })).result.error).toEqual({ name: ['Please enter a name'] })
      expect((await refusal(organisation, { intent: 'rename', name })).refusal.message).toBe('Please enter a name')
      expect((await refusal(organisation, { intent: 'create-group', name, role: 'user' })).refusal.message).toBe('Please enter a name')
    }
  })

  test('a post from another site is refused with 403 and a reason, as a page and as data', async () => {
    for (const file of ['_dashboard+/ask.tsx', '_auth+/login.tsx', '_dashboard+/articles.new.tsx', 'resources+/query-logs[.]csv.tsx']) {
      for (const origin of ['http://elsewhere.example', 'null', 'not a url']) {
        for (const asData of [false, true]) {
          const url = new URL(ACTION_ROUTES[file].path, E2E.web)
          if (asData) url.searchParams.set('_data', routeIdOf(file))
          const response = await fetch(url, {
            method: 'POST',
            redirect: 'manual',
            headers: { origin, cookie: await adminCookie(), 'content-type': 'application/x-www-form-urlencoded' },
            body: 'question=hello&title=x&content=y',
          })
          const text = await response.text()
          expect(response.status, `${url} from ${origin}: ${text.slice(0, 200)}`).toBe(403)
          expect(text).toMatch(/another site|cannot be read/)
        }
      }
    }
  })

  test('an address with a NUL byte in the task is an unknown task, not an error', async () => {
    for (const path of ['/ask?task=%00', '/agent?task=%00', '/ask?task=%00&_data=routes%2F_dashboard%2B%2Fask']) {
      const response = await fetch(new URL(path, E2E.web), { redirect: 'manual', headers: { cookie: await adminCookie() } })
      expect(response.status, path).toBeLessThan(500)
      expect(response.status, path).not.toBe(302)
    }
    const progress = await fetch(new URL('/articles/import/%00', E2E.web), { redirect: 'manual', headers: { cookie: await adminCookie() } })
    expect(progress.status).toBe(404)
  })
})

/**
 * A client written against SEED.md §7, as an integration would be: it authenticates with nothing but an `apikey`
 * (SEED.md §6: a header or a query parameter; this client alternates the two) issued by an administrator through
 * POST /admin/api_keys, and makes every call of the table. The calls its key's role allows must answer 2xx, the
 * others 403.
 *
 * Used by tests/seed-client.test.ts against a backend started in-process; it also runs on its own against a
 * running backend:
 *   SEED_BASE_URL=http://127.0.0.1:8787 SEED_ADMIN_APIKEY=<the server's API_KEY> SEED_ADMIN_TOKEN=<an admin's bearer token> \
 *     SEED_FIXTURES='{…}' npx tsx tests/seed-client.ts   (SEED_FIXTURES: see SeedFixtures below)
 */

export type Access = 'public' | 'user' | 'editor' | 'admin'
export type KeyRole = 'user' | 'editor' | 'admin'

const RANK: Record<Access, number> = { public: 0, user: 1, editor: 2, admin: 3 }

/** What the administrator prepares before the client runs: things a call names and the client cannot create. */
export interface SeedFixtures {
  organizationId: number
  /** A published article every role may read. */
  articleId: number
  /** An uploaded file's key, for GET /download. */
  s3Key: string
  templateId: number
  userId: number
  groupId: number
  /** A YouTube address whose transcript the backend can fetch. */
  youtubeUrl: string
}

export interface SeedCallOutcome {
  call: string
  access: Access
  expected: '2xx' | 403
  status: number
  via: 'header' | 'query'
  passed: boolean
  detail: string
}

interface CallSpec {
  call: string
  access: Access
  /** The request, built from what earlier calls answered (placeholders when they were refused). */
  request: (context: SeedContext) => { path: string; query?: Record<string, string | number>; body?: unknown; form?: FormData }
  /** Keeps what later calls need from a successful answer; may poll. */
  after?: (answer: unknown, context: SeedContext, client: SeedClient) => Promise<void> | void
}

interface SeedContext {
  fixtures: SeedFixtures
  role: KeyRole
  run: string
  logId?: number
  taskId?: string
  favoriteId?: number
  draftIds: number[]
  publishTaskId?: string
  publishedIds: number[]
  publishedTitles: string[]
}

/** The calls of SEED.md §7 in an order where each finds what it needs, with the role each requires. */
export const SEED_CALLS: CallSpec[] = [
  { call: 'GET /organizations', access: 'public', request: () => ({ path: '/organizations' }) },
  { call: 'GET /who_am_i', access: 'user', request: () => ({ path: '/who_am_i' }) },
  { call: 'GET /admin/bot_info', access: 'editor', request: () => ({ path: '/admin/bot_info' }) },
  {
    call: 'POST /ask_qa',
    access: 'user',
    request: ({ run }) => ({ path: '/ask_qa', body: { command: `How do I water tomatoes? (${run})`, timezone: 'Europe/London' } }),
    after: (answer, context) => {
      const body = answer as { log_id: number; task_id: string }
      context.logId = body.log_id
      context.taskId = body.task_id
    },
  },
  { call: 'POST /ask_qa_answer', access: 'user', request: ({ taskId }) => ({ path: '/ask_qa_answer', body: { task_id: taskId ?? 'no-task' } }) },
  { call: 'PUT /ask_qa_feedback', access: 'user', request: ({ logId }) => ({ path: '/ask_qa_feedback', body: { log_id: logId ?? 1, feedback: 'like' } }) },
  { call: 'GET /answer', access: 'user', request: ({ logId }) => ({ path: '/answer', query: { log_id: logId ?? 1 } }) },
  { call: 'GET /query_logs/query_log', access: 'user', request: ({ logId }) => ({ path: '/query_logs/query_log', query: { log_id: logId ?? 1 } }) },
  {
    call: 'POST /query_logs/add_query_favorite',
    access: 'user',
    request: ({ logId }) => ({ path: '/query_logs/add_query_favorite', body: { log_id: logId ?? 1, comment: 'For the newsletter', id: null, comment_list_id: null } }),
    after: (answer, context) => {
      context.favoriteId = (answer as { id: number }).id
    },
  },
  { call: 'GET /query_logs/query_favorites', access: 'user', request: () => ({ path: '/query_logs/query_favorites' }) },
  { call: 'DELETE /query_logs/delete_query_favorite', access: 'user', request: ({ favoriteId }) => ({ path: '/query_logs/delete_query_favorite', query: { id: favoriteId ?? 1 } }) },
  { call: 'GET /admin/get_content', access: 'user', request: ({ fixtures }) => ({ path: '/admin/get_content', query: { id: fixtures.articleId } }) },
  { call: 'GET /download', access: 'user', request: ({ fixtures }) => ({ path: '/download', query: { s3_key: fixtures.s3Key } }) },
  { call: 'POST /admin/convert_doc', access: 'user', request: () => ({ path: '/admin/convert_doc', body: { doc: '# Watering\n\nWater tomatoes **deeply** twice a week.' } }) },
  { call: 'GET /admin/get_templates', access: 'user', request: () => ({ path: '/admin/get_templates' }) },
  { call: 'GET /admin/get_templates/{id}', access: 'user', request: ({ fixtures }) => ({ path: `/admin/get_templates/${fixtures.templateId}` }) },

  { call: 'GET /query_logs', access: 'editor', request: () => ({ path: '/query_logs', query: { limit: 50, status: 'all' } }) },
  { call: 'GET /query_logs/query_log_csv', access: 'editor', request: () => ({ path: '/query_logs/query_log_csv' }) },
  { call: 'GET /admin/query_log_ds_csv', access: 'editor', request: () => ({ path: '/admin/query_log_ds_csv' }) },
  {
    call: 'GET /admin/get_articles',
    access: 'editor',
    request: () => ({
      path: '/admin/get_articles',
      query: { first: 0, rows: 30, sortField: 'id', sortOrder: 1, filters: JSON.stringify({ title: { value: 'tomato', matchMode: 'contains' } }) },
    }),
  },
  {
    call: 'POST /admin/inject_article',
    access: 'editor',
    request: ({ run }) => ({ path: '/admin/inject_article', body: { title: `Seed client guide ${run}`, content: 'Mulch keeps the roots of tomato plants cool.' } }),
    after: (answer, context) => {
      context.draftIds.push((answer as { id: number }).id)
    },
  },
  { call: 'GET /admin/get_temp_articles', access: 'editor', request: () => ({ path: '/admin/get_temp_articles', query: { first: 0, rows: 30 } }) },
  { call: 'GET /admin/get_temp_content', access: 'editor', request: ({ draftIds }) => ({ path: '/admin/get_temp_content', query: { id: draftIds[0] ?? 1 } }) },
  {
    call: 'PUT /admin/update_temp_doc',
    access: 'editor',
    request: ({ draftIds }) => ({ path: '/admin/update_temp_doc', body: { id: draftIds[0] ?? 1, content: 'Mulch keeps the roots of tomato plants cool and moist.' } }),
  },
  {
    call: 'POST /admin/upload_recovery_answer',
    access: 'editor',
    request: ({ run }) => ({ path: '/admin/upload_recovery_answer', body: { question: `Seed client question ${run}`, answer: 'Water them in the morning.' } }),
    after: (answer, context) => {
      context.draftIds.push((answer as { id: number }).id)
    },
  },
  {
    call: 'POST /admin/do_embeddings',
    access: 'editor',
    request: ({ draftIds }) => ({ path: '/admin/do_embeddings', body: { ids: draftIds.length ? draftIds : [1] } }),
    after: (answer, context) => {
      context.publishTaskId = (answer as { task_id: string }).task_id
    },
  },
  {
    call: 'GET /admin/check_embeddings',
    access: 'editor',
    request: ({ publishTaskId }) => ({ path: '/admin/check_embeddings', query: publishTaskId ? { task_id: publishTaskId } : undefined }),
    // Polls (as the old client did) until the publish ends, then keeps the published articles.
    after: async (answer, context, client) => {
      let progress = answer as { status: string; published: { article_id: number; title: string }[] }
      for (let attempt = 0; attempt < 400 && ['queued', 'running'].includes(progress.status); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        progress = (await client.request('GET', '/admin/check_embeddings', { query: { task_id: context.publishTaskId ?? '' } })).body as typeof progress
      }
      context.publishedIds = progress.published.map((entry) => entry.article_id)
      context.publishedTitles = progress.published.map((entry) => entry.title)
    },
  },
  {
    call: 'PUT /admin/update_doc',
    access: 'editor',
    request: ({ publishedIds }) => ({ path: '/admin/update_doc', body: { id: publishedIds[0] ?? 1, content: 'Mulch keeps tomato roots cool; water at the base.' } }),
  },
  { call: 'DELETE /admin/delete_article', access: 'editor', request: ({ publishedIds }) => ({ path: '/admin/delete_article', body: { id: publishedIds[0] ?? 1 } }) },
  {
    call: 'DELETE /admin/delete_article_by_title',
    access: 'editor',
    request: ({ publishedTitles, run }) => ({ path: '/admin/delete_article_by_title', body: { title: publishedTitles[1] ?? `Seed client question ${run}` } }),
  },
  {
    call: 'POST /admin/inject_article (a draft to delete)',
    access: 'editor',
    request: ({ run }) => ({ path: '/admin/inject_article', body: { title: `Seed client draft ${run}`, content: 'A draft that is deleted.' } }),
    after: (answer, context) => {
      context.draftIds = [(answer as { id: number }).id]
    },
  },
  { call: 'DELETE /admin/delete_temp_article', access: 'editor', request: ({ draftIds }) => ({ path: '/admin/delete_temp_article', body: { id: draftIds[0] ?? 1 } }) },
  {
    call: 'POST /admin/upload_recovery',
    access: 'editor',
    request: ({ run }) => {
      const form = new FormData()
      form.append('files', new Blob([`# Pruning roses ${run}\n\nPrune roses in late winter.`], { type: 'text/markdown' }), `roses-${run}.md`)
      return { path: '/admin/upload_recovery', form }
    },
  },
  { call: 'POST /admin/inject_youtube', access: 'editor', request: ({ fixtures }) => ({ path: '/admin/inject_youtube', body: { url: fixtures.youtubeUrl } }) },
  { call: 'DELETE /admin/delete_all_temp_articles', access: 'editor', request: () => ({ path: '/admin/delete_all_temp_articles', body: {} }) },

  { call: 'POST /admin/create_template', access: 'admin', request: ({ run }) => ({ path: '/admin/create_template', body: { name: `Seed ${run}`, sections: [{ title: 'Summary' }] } }) },
  { call: 'PUT /admin/update_template', access: 'admin', request: ({ fixtures }) => ({ path: '/admin/update_template', body: { id: fixtures.templateId, description: 'Changed by a key' } }) },
  { call: 'DELETE /admin/delete_template', access: 'admin', request: ({ fixtures }) => ({ path: '/admin/delete_template', query: { id: fixtures.templateId } }) },
  { call: 'GET /admin/bot_setting', access: 'admin', request: () => ({ path: '/admin/bot_setting' }) },
  { call: 'PUT /admin/bot_setting', access: 'admin', request: () => ({ path: '/admin/bot_setting', body: { bot_description: 'Changed by a key' } }) },
  { call: 'GET /admin/vis-network-agent-state-fields', access: 'admin', request: () => ({ path: '/admin/vis-network-agent-state-fields' }) },
  { call: 'POST /admin/vis-network', access: 'admin', request: () => ({ path: '/admin/vis-network', body: { variant: 'general' } }) },
  { call: 'GET /admin/users', access: 'admin', request: () => ({ path: '/admin/users', query: { filter: '', limit: 30, offset: 0 } }) },
  { call: 'GET /admin/users/{id}', access: 'admin', request: ({ fixtures }) => ({ path: `/admin/users/${fixtures.userId}` }) },
  {
    call: 'PUT /admin/users/{id}',
    access: 'admin',
    request: ({ fixtures }) => ({
      path: `/admin/users/${fixtures.userId}`,
      body: { id: fixtures.userId, email: 'changed@example.test', firstName: 'Changed', lastName: 'ByKey', username: 'changed-by-key', password: '', cellphone: '', group_id: fixtures.groupId, organization_id: fixtures.organizationId, enabled: true },
    }),
  },
  { call: 'GET /admin/groups/{organization_id}', access: 'admin', request: ({ fixtures }) => ({ path: `/admin/groups/${fixtures.organizationId}` }) },

  {
    call: 'POST /users',
    access: 'public',
    request: ({ fixtures, run }) => ({
      path: '/users',
      body: { username: `seed-${run}`, email: `seed-${run}@example.test`, firstName: 'Seed', lastName: 'Client', cellphone: '', password: 'a long enough password 1', enabled: true, organizations: [fixtures.organizationId] },
    }),
  },
]

/** The HTTP side of the client: JSON calls with only the apikey, in the header or the query string. */
export class SeedClient {
  private count = 0

  constructor(
    private readonly baseUrl: string,
    private readonly apikey: string,
  ) {}

  /** The next call's way of sending the key: header, query, header, … */
  nextVia(): 'header' | 'query' {
    return this.count % 2 === 0 ? 'header' : 'query'
  }

  async request(
    method: string,
    path: string,
    options: { query?: Record<string, string | number>; body?: unknown; form?: FormData; via?: 'header' | 'query' } = {},
  ): Promise<{ status: number; body: unknown; contentType: string }> {
    const via = options.via ?? this.nextVia()
    this.count++
    const url = new URL(path, this.baseUrl)
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value))
    const headers: Record<string, string> = {}
    if (via === 'header') headers.apikey = this.apikey
    else url.searchParams.set('apikey', this.apikey)
    let body: BodyInit | undefined
    if (options.form) body = options.form
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.body)
    }
    // SEED.md §7: every call has a timeout of 300000 ms.
    const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(300_000) })
    const contentType = response.headers.get('content-type') ?? ''
    const text = contentType.includes('json') ? await response.text() : ''
    if (!contentType.includes('json')) await response.arrayBuffer()
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null, contentType }
  }
}

/** An administrator issues a key for an integration: POST /admin/api_keys answers it once. */
export async function createIntegrationKey(baseUrl: string, adminHeaders: Record<string, string>, key: { name: string; role: KeyRole; organization_id: number }): Promise<string> {
  const response = await fetch(new URL('/admin/api_keys', baseUrl), {
    method: 'POST',
    headers: { ...adminHeaders, 'content-type': 'application/json' },
    body: JSON.stringify(key),
  })
  const body = (await response.json()) as { key?: string; message?: string }
  if (response.status !== 200 || !body.key) throw new Error(`POST /admin/api_keys answered ${response.status}: ${body.message ?? ''}`)
  return body.key
}

/** Plays every call of SEED.md §7 with one key and says, call by call, whether the answer was the expected one. */
export async function playSeedClient(baseUrl: string, apikey: string, role: KeyRole, fixtures: SeedFixtures): Promise<SeedCallOutcome[]> {
  const client = new SeedClient(baseUrl, apikey)
  const context: SeedContext = { fixtures, role, run: `${role}-${Date.now().toString(36)}`, draftIds: [], publishedIds: [], publishedTitles: [] }
  const outcomes: SeedCallOutcome[] = []
  for (const spec of SEED_CALLS) {
    const [method, ...rest] = spec.call.split(' ')
    const expected = RANK[role] >= RANK[spec.access] ? '2xx' : 403
    const request = spec.request(context)
    const via = client.nextVia()
    const answer = await client.request(method, request.path, { ...request, via })
    const passed = expected === '2xx' ? answer.status >= 200 && answer.status < 300 : answer.status === 403
    const message = (answer.body as { message?: string } | null)?.message
    outcomes.push({ call: `${method} ${rest.join(' ')}`, access: spec.access, expected, status: answer.status, via, passed, detail: passed ? '' : (message ?? answer.contentType) })
    if (passed && expected === '2xx' && spec.after) await spec.after(answer.body, context, client)
  }
  return outcomes
}

/** On its own: creates a user-role and an editor-role key and plays the client with each, printing the outcomes. */
async function main() {
  const baseUrl = process.env.SEED_BASE_URL
  const adminKey = process.env.SEED_ADMIN_APIKEY
  const adminToken = process.env.SEED_ADMIN_TOKEN
  const fixturesJson = process.env.SEED_FIXTURES
  if (!baseUrl || !adminKey || !adminToken || !fixturesJson) {
    console.error('Set SEED_BASE_URL, SEED_ADMIN_APIKEY, SEED_ADMIN_TOKEN and SEED_FIXTURES (JSON of SeedFixtures).')
    process.exit(2)
  }
  const fixtures = JSON.parse(fixturesJson) as SeedFixtures
  let failed = 0
  for (const role of ['user', 'editor'] as const) {
    const key = await createIntegrationKey(baseUrl, { apikey: adminKey, authorization: `Bearer ${adminToken}` }, { name: `SEED client (${role})`, role, organization_id: fixtures.organizationId })
    for (const outcome of await playSeedClient(baseUrl, key, role, fixtures)) {
      if (!outcome.passed) failed++
      console.log(`${outcome.passed ? 'ok  ' : 'FAIL'} ${role.padEnd(6)} ${outcome.call.padEnd(45)} ${outcome.status} (expected ${outcome.expected}, key in ${outcome.via}) ${outcome.detail}`)
    }
  }
  process.exit(failed ? 1 : 0)
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) void main()

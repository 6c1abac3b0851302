import { E2E, bareUrl, createLocalAccount, expect, signInLocally, test } from './support'

// A role below a screen's gets a 403 with the reason, and nothing of the screen: Remix runs the screen's loader beside
// the dashboard's, so each one refuses by itself before it asks the backend. The same for its actions: the refusal
// is a 403 with the reason, never a server error.

interface Article {
  id: number
  title: string
  /** A run of plain words from its content: found in a page only if the article was sent. */
  excerpt: string
}

/** An article of the demo content, read through the backend as the administrator. */
async function anArticle(): Promise<Article> {
  const call = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const response = await fetch(`${E2E.api}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        apikey: E2E.apiKey,
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    })
    if (!response.ok) throw new Error(`${path} answered ${response.status}`)
    return response.json()
  }
  const { access_token: token } = await call('/auth/login', { method: 'POST', body: { username: 'admin', password: E2E.adminPassword } })
  const page = await call('/admin/get_articles?first=0&rows=1', { token })
  const id = page.rows[0][0] as number
  const article = await call(`/admin/get_content?id=${id}`, { token })
  const excerpt = (String(article.content).match(/[A-Za-z][A-Za-z ,]{40,}/) ?? [String(article.title)])[0].slice(0, 40)
  return { id, title: article.title, excerpt }
}

test.describe('A screen above the role', () => {
  test("the 403 page carries none of the refused screen's data, as a page or as data", async ({ page }) => {
    const article = await anArticle()
    const account = await createLocalAccount('user')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(bareUrl('/ask'))

    const refused = await page.goto(`/articles/${article.id}`)
    expect(refused?.status()).toBe(403)
    await expect(page.getByRole('alert')).toContainText('Your role (user) does not open this page')
    const html = await page.content()
    expect(html).not.toContain(article.excerpt)
    expect(html).not.toContain(JSON.stringify(article.title).slice(1, -1))

    // The screen's loader on its own (as scripts ask for it on a client-side navigation) refuses too.
    for (const [path, routeId] of [
      [`/articles/${article.id}`, 'routes/_dashboard+/articles.$id'],
      ['/settings/templates', 'routes/_dashboard+/settings.templates._index'],
      ['/settings/graph', 'routes/_dashboard+/settings.graph'],
    ]) {
      const data = await page.request.get(`${path}?_data=${encodeURIComponent(routeId)}`)
      expect(data.status(), path).toBe(403)
      const body = await data.text()
      expect(body, path).toContain('does not open this page')
      expect(body, path).not.toContain(article.excerpt)
    }
  })

  test("an editor's action answers a user 403 with the reason, before the backend is asked", async ({ page }) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(bareUrl('/ask'))
    const draft = { title: 'A draft a user may not write', content: 'Written by someone whose role does not write articles.' }
    const asPage = await page.request.post('/articles/new', { form: draft, headers: { origin: E2E.web } })
    expect(asPage.status()).toBe(403)
    expect(await asPage.text()).toContain('Your role (user) does not open this page')
    const asData = await page.request.post(`/articles/new?_data=${encodeURIComponent('routes/_dashboard+/articles.new')}`, {
      form: draft,
      headers: { origin: E2E.web },
    })
    expect(asData.status()).toBe(403)
    expect(((await asData.json()) as { message: string }).message).toContain('does not open this page')
    const deleteByTitle = await page.request.post('/articles?index', { form: { title: draft.title, confirm: 'on' }, headers: { origin: E2E.web } })
    expect(deleteByTitle.status()).toBe(403)
  })
})

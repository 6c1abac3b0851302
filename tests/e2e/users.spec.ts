import { expect, test, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test'
import { BACKEND_URL, backendSession, postedFields, whenHydrated } from './support/backend'
import { choose } from './support/select'
import { expectToast, watchToasts } from './support/toasts'

const PASSWORD = 'garden-path-42'

/** A prefix of its own per project and test, so runs never see each other's users. */
const uniquePrefix = (prefix: string, project: string) => `${prefix}.${project}.${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`

/** Registers a person through the web server's own register form (as a browser without scripts posts it). */
async function register(request: APIRequestContext, username: string) {
  const response = await request.post('/register', {
    form: {
      username,
      email: `${username}@example.org`,
      firstName: 'Test',
      lastName: username.split('.').pop() ?? 'User',
      cellphone: '',
      password: PASSWORD,
      password_again: PASSWORD,
      organization: '1',
    },
  })
  expect(response.ok(), `registering ${username}`).toBe(true)
}

/** The users' search and filters form, unfolded where a narrow screen folds it away. */
async function openFilters(page: Page) {
  const filters = page.getByRole('form', { name: 'Search and filter users' })
  if (!(await filters.isVisible())) await page.getByText('Search and filter users', { exact: true }).first().click()
  return filters
}

/** A new organisation with a group of its own, "Reviewers", made on the Organisations screens. */
async function createOrganisationWithReviewers(page: Page, name: string, testInfo: TestInfo) {
  await page.goto('/organisations')
  await whenHydrated(page.getByRole('button', { name: 'Create organisation' }), testInfo)
  await page.getByLabel('Organisation name', { exact: true }).fill(name)
  await page.getByRole('button', { name: 'Create organisation' }).click()
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()
  await whenHydrated(page.getByRole('button', { name: 'Create group' }), testInfo)
  await page.getByLabel('Group name', { exact: true }).fill('Reviewers')
  await page.getByRole('button', { name: 'Create group' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Group "Reviewers" created' })).toBeVisible()
}

/** What PUT /admin/users/{id} takes, from what GET /admin/users/{id} answers. */
const pick = ({ id, username, email, firstName, lastName, cellphone, organization_id, group_id, enabled }: Record<string, unknown>) =>
  ({ id, username, email, firstName, lastName, cellphone, organization_id, group_id, enabled })

/** Opens a user's edit page from the list. */
async function editUser(page: Page, username: string, testInfo: TestInfo) {
  await page.goto(`/users?filter=${encodeURIComponent(username)}`)
  await page.getByRole('link', { name: `Edit ${username}` }).click()
  await whenHydrated(page.getByRole('button', { name: 'Save user' }), testInfo)
}

/** A newly registered user's edit page, opened by an administrator: its username, the administrator's backend session and the user's id. */
async function editNewUser(page: Page, prefix: string, testInfo: TestInfo) {
  const username = uniquePrefix(prefix, testInfo.project.name)
  await register(page.request, username)
  const admin = await backendSession(page.request, 'admin', process.env.E2E_ADMIN_PASSWORD ?? '')
  await editUser(page, username, testInfo)
  return { username, admin, id: new URL(page.url()).pathname.split('/').pop() }
}

/** The option a labelled select shows as chosen: the native <select> without scripts, the react-aria button with them. */
function chosen(page: Page, label: string, isJs: boolean) {
  return isJs ? page.getByRole('button', { name: label }) : page.getByLabel(label, { exact: true }).locator('option:checked')
}

test.describe('Users', () => {
  test('searches users and pages them 30 at a time', async ({ page }, testInfo) => {
    test.setTimeout(120_000)
    const prefix = uniquePrefix('pager', testInfo.project.name)
    for (let index = 0; index < 31; index++) await register(page.request, `${prefix}.u${String(index).padStart(2, '0')}`)

    await page.goto('/users')
    await page.getByRole('searchbox', { name: 'Search' }).fill(prefix)
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`filter=${prefix.replaceAll('.', '\\.')}`))
    const table = page.getByRole('table', { name: 'Users' })
    const pages = page.getByRole('navigation', { name: 'Users pages' })
    await expect(pages).toContainText('1–30 of 31 (page 1 of 2)')
    await expect(table.getByRole('row')).toHaveCount(31) // the header and 30 users

    await pages.getByRole('link', { name: 'Next' }).click()
    await expect(page).toHaveURL(/first=30/)
    await expect(pages).toContainText('31–31 of 31 (page 2 of 2)')
    await expect(table.getByRole('row')).toHaveCount(2)
    await pages.getByRole('link', { name: 'Previous' }).click()
    await expect(page).toHaveURL(/\/users\?(?!.*first=30)/)
    // The address changes before the page renders it, and the filters form is new with each address (its key): typing
    // before it is there would be typed into the form it replaces (a CI run under load searched the old words).
    await expect(pages).toContainText('1–30 of 31 (page 1 of 2)')

    await page.getByRole('searchbox', { name: 'Search' }).fill(`${prefix}.u07`)
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(table.getByRole('row')).toHaveCount(2)
    await expect(table).toContainText(`${prefix}.u07`)
    await expect(page.getByRole('status').filter({ hasText: 'matching' })).toHaveText(`1 matching user for “${prefix}.u07”`)
  })

  test("fits a laptop's screen with no column under the pinned actions, and a phone's with no sideways page", async ({ page }, testInfo) => {
    const username = `${uniquePrefix('layout', testInfo.project.name)}.with.a.rather.long.name`
    await register(page.request, username)
    await page.setViewportSize({ width: 1366, height: 900 })
    await page.goto(`/users?filter=${encodeURIComponent(username)}`)
    const table = page.getByRole('table', { name: 'Users' })
    await expect(table).toContainText(username)
    const box = async (locator: Locator) => {
      const found = await locator.boundingBox()
      expect(found).not.toBeNull()
      return found!
    }
    const actions = await box(table.getByRole('columnheader', { name: 'Actions' }))
    // The box the table scrolls in (the page's section is a region named "Users" too).
    const scroller = page.locator('[role="region"][aria-label="Users"]')
    const region = await box(scroller)
    for (const cell of await table.getByRole('row').filter({ hasText: username }).getByRole('cell').all()) {
      const { x, width } = await box(cell)
      // Every cell is in the box as it is, left of the actions (the last one is the actions' own).
      expect(x + width).toBeLessThanOrEqual(region.x + region.width + 1)
    }
    for (const header of await table.getByRole('columnheader').all()) {
      const { x, width } = await box(header)
      if ((await header.textContent())?.trim() !== 'Actions') expect(x + width, await header.textContent() ?? '').toBeLessThanOrEqual(actions.x + 1)
    }
    expect(await scroller.evaluate((node) => node.scrollWidth - node.clientWidth)).toBeLessThanOrEqual(1)

    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await expect(table).toContainText(username)
    await page.waitForLoadState('load')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  })

  test('shows the last page for an address past the end, as a stale page link has', async ({ page }, testInfo) => {
    const prefix = uniquePrefix('past', testInfo.project.name)
    for (let index = 0; index < 3; index++) await register(page.request, `${prefix}.u${index}`)
    const pages = page.getByRole('navigation', { name: 'Users pages' })
    const table = page.getByRole('table', { name: 'Users' })

    await page.goto(`/users?filter=${encodeURIComponent(prefix)}&rows=2&first=99999`)
    await expect(page).toHaveURL(/[?&]first=2(&|$)/)
    await expect(pages).toContainText('3–3 of 3 (page 2 of 2)')
    await expect(table).toContainText(`${prefix}.u2`)
    await expect(pages.getByRole('link', { name: 'Next' })).toHaveCount(0)
  })

  test('filters by column with a match mode, ignoring case and accents, and sorts by a column', async ({ page }, testInfo) => {
    const prefix = uniquePrefix('column', testInfo.project.name)
    for (const suffix of ['alpha', 'beta', 'gamma']) await register(page.request, `${prefix}.${suffix}`)
    await page.goto('/users')
    const filters = await openFilters(page)
    await filters.getByLabel('Username match mode').selectOption('startsWith')
    await filters.getByLabel('Username', { exact: true }).fill(prefix.toUpperCase())
    await filters.getByLabel('Last name match mode').selectOption('notEquals')
    await filters.getByLabel('Last name', { exact: true }).fill('BÉTA')
    await filters.getByRole('button', { name: 'Filter', exact: true }).click()
    await expect(page).toHaveURL(/username_mode=startsWith/)
    const table = page.getByRole('table', { name: 'Users' })
    await expect(table.getByRole('row')).toHaveCount(3)
    await expect(table).not.toContainText(`${prefix}.beta`)

    await table.getByRole('button', { name: 'Username' }).click()
    await expect(page).toHaveURL(/sortField=username/)
    await expect(table.getByRole('columnheader', { name: 'Username' })).toHaveAttribute('aria-sort', 'ascending')
    await table.getByRole('button', { name: 'Username' }).click()
    await expect(table.getByRole('columnheader', { name: 'Username' })).toHaveAttribute('aria-sort', 'descending')
    await expect(table.getByRole('row').nth(1)).toContainText(`${prefix}.gamma`)
    await expect(table.getByRole('row').nth(2)).toContainText(`${prefix}.alpha`)
    // The filters were kept while sorting.
    await expect(table.getByRole('row')).toHaveCount(3)
  })

  test('adds a user with a role and a password, who signs in at once', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const username = uniquePrefix('added', testInfo.project.name)
    await page.goto('/users')
    await page.getByRole('link', { name: 'Add user' }).click()
    await whenHydrated(page.getByRole('button', { name: 'Add user', exact: true }), testInfo)
    await choose(page, 'Role', 'Editor', isJs)
    await page.getByLabel('Username', { exact: true }).fill(username)
    await page.getByLabel('Email', { exact: true }).fill(`${username}@example.org`)
    await page.getByLabel('First name', { exact: true }).fill('Added')
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Add user', exact: true }).click()
    await expect(page.getByRole('heading', { name: `Edit user ${username}` })).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: 'User created' })).toBeVisible()

    const session = await backendSession(page.request, username, PASSWORD)
    expect(session.status).toBe(200)
    const me = await page.request.get(`${BACKEND_URL}/auth/me`, { headers: session.headers })
    expect(await me.json()).toMatchObject({ username, role: 'editor' })
  })

  test("a new user, API key or invitation code starts in the administrator's own organisation, not the first by name", async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    // An organisation listed before every other one.
    const admin = await backendSession(page.request, 'admin', process.env.E2E_ADMIN_PASSWORD ?? '')
    const first = `AAA first ${testInfo.project.name} ${Date.now().toString(36)}`
    expect((await page.request.post(`${BACKEND_URL}/admin/organizations`, { headers: admin.headers, data: { name: first } })).status()).toBe(200)
    const own = (await (await page.request.get(`${BACKEND_URL}/auth/me`, { headers: admin.headers })).json()).organization_id
    const organisations: { id: number; name: string }[] = await (await page.request.get(`${BACKEND_URL}/organizations`, { headers: admin.headers })).json()
    const ownName = organisations.find((organisation) => organisation.id === own)?.name ?? ''
    expect(ownName).not.toBe(first)

    for (const [address, button] of [
      ['/users/new', 'Add user'],
      ['/users/new?invite=1', 'Invite user'],
      ['/api-keys', 'Create key'],
      ['/users/invitations', 'Create invitation code'],
    ]) {
      await page.goto(address)
      await whenHydrated(page.getByRole('button', { name: button, exact: true }), testInfo)
      await expect(chosen(page, 'Organisation', isJs), address).toContainText(ownName)
    }
  })

  test('invites a user: the link is shown once and sets their password', async ({ page }, testInfo) => {
    const username = uniquePrefix('invited', testInfo.project.name)
    await page.goto('/users')
    await page.getByRole('link', { name: 'Invite user' }).click()
    await whenHydrated(page.getByRole('button', { name: 'Invite user', exact: true }), testInfo)
    await page.getByLabel('Username', { exact: true }).fill(username)
    await page.getByLabel('Email', { exact: true }).fill(`${username}@example.org`)
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0)
    await page.getByRole('button', { name: 'Invite user', exact: true }).click()
    await expect(page.getByRole('heading', { name: `${username} is invited` })).toBeVisible()
    await expect(page.getByText('Copy it now: it won’t be shown again.')).toBeVisible()
    const link = new URL(await page.getByTestId('invitation-link').inputValue())
    expect(link.pathname).toBe('/password')
    const code = link.searchParams.get('code') ?? ''
    expect(code.length).toBeGreaterThanOrEqual(32)

    expect((await backendSession(page.request, username, PASSWORD)).status).toBe(401)
    const used = await page.request.post(`${BACKEND_URL}/auth/password_link`, { headers: { apikey: process.env.E2E_API_KEY ?? '' }, data: { code, password: PASSWORD } })
    expect(await used.json()).toMatchObject({ success: true, username })
    expect((await backendSession(page.request, username, PASSWORD)).status).toBe(200)
  })

  test('an invitation form posted again, as a reload of the answer showing the code does, creates no second code', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const note = uniquePrefix('once', testInfo.project.name)
    const admin = await backendSession(page.request, 'admin', process.env.E2E_ADMIN_PASSWORD ?? '')
    const codesNoted = async () =>
      ((await (await page.request.get(`${BACKEND_URL}/admin/invitations`, { headers: admin.headers })).json()) as { note: string }[]).filter((invitation) => invitation.note === note).length
    const repeated = 'This invitation code was already created; it was shown once. Revoke it and create another if you did not copy it.'

    await page.goto('/users/invitations')
    await whenHydrated(page.getByRole('button', { name: 'Create invitation code' }), testInfo)
    await page.getByLabel('Note', { exact: true }).fill(note)
    const form = await postedFields(page.getByRole('form', { name: 'Create an invitation code' }), 'Create invitation code')
    await page.getByRole('button', { name: 'Create invitation code' }).click()
    await expect(page.getByTestId('new-invitation-code')).toBeVisible()
    expect(await codesNoted()).toBe(1)

    if (!isJs) {
      await page.reload()
      await expect(page.getByRole('alert').filter({ hasText: repeated })).toBeVisible()
      await expect(page.getByTestId('new-invitation-code')).toHaveCount(0)
    }
    const again = await page.request.post('/users/invitations', { form: { ...form, intent: 'create' } })
    expect(again.status()).toBe(409)
    expect(await again.text()).toContain(repeated)
    expect(await codesNoted()).toBe(1)
    // The code is revoked again: the screen walk reads the list as a new installation has it.
    const invitations = (await (await page.request.get(`${BACKEND_URL}/admin/invitations`, { headers: admin.headers })).json()) as { id: number; note: string }[]
    for (const invitation of invitations.filter((listed) => listed.note === note)) {
      expect((await page.request.delete(`${BACKEND_URL}/admin/invitations/${invitation.id}`, { headers: admin.headers })).status()).toBe(200)
    }
    expect(await codesNoted()).toBe(0)
  })

  test('a reset link form posted again, as a reload of the answer showing the link does, makes no second link: the link shown keeps working', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const { username } = await editNewUser(page, 'relink', testInfo)
    const repeated = 'This reset link was already created; it was shown once. If you did not copy it, create another: only the newest link works.'
    const form = page.getByRole('form', { name: `Create a password reset link for ${username}` })
    const posted = { ...(await postedFields(form, 'Create reset link')), intent: 'reset-link' }
    const address = page.url()
    await form.getByRole('button', { name: 'Create reset link' }).click()
    await expect(page.getByTestId('reset-link')).toBeVisible()
    const code = new URL(await page.getByTestId('reset-link').inputValue()).searchParams.get('code')

    if (!isJs) {
      // The browser posts the same form again.
      await page.reload()
      await expect(page.getByRole('alert').filter({ hasText: repeated })).toBeVisible()
      await expect(page.getByTestId('reset-link')).toHaveCount(0)
    }
    const again = await page.request.post(address, { form: posted })
    expect(again.status()).toBe(409)
    expect(await again.text()).toContain(repeated)
    // Only the newest link works: had another been made, the one shown (and sent) would no longer.
    const used = await page.request.post(`${BACKEND_URL}/auth/password_link`, {
      headers: { apikey: process.env.E2E_API_KEY ?? '' },
      data: { code, password: 'via-the-link-88' },
    })
    expect(used.status()).toBe(200)
    expect((await backendSession(page.request, username, 'via-the-link-88')).status).toBe(200)
  })

  test('an invitation posted again, as a reload of the answer showing its link does, says the user was invited already', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const username = uniquePrefix('reinvited', testInfo.project.name)
    const repeated = 'This user was already invited; the link was shown once. If you did not copy it, open the user and create a reset link.'
    await page.goto('/users/new?invite=1')
    await whenHydrated(page.getByRole('button', { name: 'Invite user', exact: true }), testInfo)
    await page.getByLabel('Username', { exact: true }).fill(username)
    await page.getByLabel('Email', { exact: true }).fill(`${username}@example.org`)
    const posted = { ...(await postedFields(page.getByRole('form', { name: 'Invite user' }), 'Invite user')), intent: 'invite' }
    await page.getByRole('button', { name: 'Invite user', exact: true }).click()
    await expect(page.getByRole('heading', { name: `${username} is invited` })).toBeVisible()
    const code = new URL(await page.getByTestId('invitation-link').inputValue()).searchParams.get('code')

    if (!isJs) {
      await page.reload()
      await expect(page.getByRole('alert').filter({ hasText: repeated })).toBeVisible()
      await expect(page.getByTestId('invitation-link')).toHaveCount(0)
    }
    const again = await page.request.post('/users/new?invite=1', { form: posted })
    expect(again.status()).toBe(409)
    expect(await again.text()).toContain(repeated)
    // The link shown still sets the password.
    const used = await page.request.post(`${BACKEND_URL}/auth/password_link`, { headers: { apikey: process.env.E2E_API_KEY ?? '' }, data: { code, password: PASSWORD } })
    expect(used.status()).toBe(200)
  })

  test("disables and enables a user on the user's page: a disabled user cannot sign in and their session ends", async ({ page }, testInfo) => {
    const username = uniquePrefix('disable', testInfo.project.name)
    await register(page.request, username)
    const before = await backendSession(page.request, username, PASSWORD)
    expect(before.status).toBe(200)

    await page.goto(`/users?filter=${encodeURIComponent(username)}`)
    await page.getByRole('link', { name: `Edit ${username}` }).click()
    await page.getByRole('button', { name: 'Disable user' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'User disabled' })).toBeVisible()
    await expect(page.getByText('This account is disabled: it cannot sign in.')).toBeVisible()
    expect((await page.request.get(`${BACKEND_URL}/auth/me`, { headers: before.headers })).status()).toBe(401)
    expect((await backendSession(page.request, username, PASSWORD)).status).toBe(401)

    await page.getByRole('button', { name: 'Enable user' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'User enabled' })).toBeVisible()
    expect((await backendSession(page.request, username, PASSWORD)).status).toBe(200)
  })

  test('a save straight after "Disable user" or "Enable user" keeps what that did', async ({ page }, testInfo) => {
    const { username, admin, id } = await editNewUser(page, 'resave', testInfo)
    const savedEnabled = async () => (await (await page.request.get(`${BACKEND_URL}/admin/users/${id}`, { headers: admin.headers })).json()).enabled

    await page.getByRole('button', { name: 'Disable user' }).click()
    await expect(page.getByText('This account is disabled: it cannot sign in.')).toBeVisible()
    // The edit form shows it too, and saving it as it is keeps the account disabled.
    await expect(page.getByRole('switch', { name: 'Enabled' })).not.toBeChecked()
    await page.getByRole('button', { name: 'Save user' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'User updated' })).toBeVisible()
    expect(await savedEnabled()).toBe(false)

    await editUser(page, username, testInfo)
    await page.getByRole('button', { name: 'Enable user' }).click()
    await expect(page.getByText('This account is enabled.')).toBeVisible()
    await expect(page.getByRole('switch', { name: 'Enabled' })).toBeChecked()
    await page.getByRole('button', { name: 'Save user' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'User updated' })).toBeVisible()
    expect(await savedEnabled()).toBe(true)
  })

  test('a save from a page opened before a change elsewhere keeps that change: only the fields changed in the form are saved', async ({ page }, testInfo) => {
    const { username, admin, id } = await editNewUser(page, 'stale', testInfo)
    // Meanwhile another administrator disables the account and moves it into the editors' group.
    expect((await page.request.post(`${BACKEND_URL}/admin/users/${id}/disable`, { headers: admin.headers, data: {} })).status()).toBe(200)
    const saved = await (await page.request.get(`${BACKEND_URL}/admin/users/${id}`, { headers: admin.headers })).json()
    const groups = await (await page.request.get(`${BACKEND_URL}/admin/groups/${saved.organization_id}`, { headers: admin.headers })).json()
    const editors = groups.find((group: { role: string }) => group.role === 'editor')
    const moved = await page.request.put(`${BACKEND_URL}/admin/users/${id}`, { headers: admin.headers, data: { ...pick(saved), enabled: false, group_id: editors.id } })
    expect(moved.status()).toBe(200)

    // This page still shows the account enabled in the users' group; only the first name is changed here.
    await page.getByLabel('First name', { exact: true }).fill('Renamed')
    await page.getByRole('button', { name: 'Save user' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'User updated' })).toBeVisible()
    expect(await (await page.request.get(`${BACKEND_URL}/admin/users/${id}`, { headers: admin.headers })).json()).toMatchObject({
      firstName: 'Renamed',
      enabled: false,
      group_id: editors.id,
    })
  })

  test("resets a user's password: set by the administrator, or a one-time link", async ({ page }, testInfo) => {
    const username = uniquePrefix('reset', testInfo.project.name)
    await register(page.request, username)
    await page.goto(`/users?filter=${encodeURIComponent(username)}`)
    await page.getByRole('link', { name: `Edit ${username}` }).click()
    await whenHydrated(page.getByRole('button', { name: 'Set password' }), testInfo)

    await page.getByLabel('New password for the user', { exact: true }).fill('short')
    await page.getByRole('button', { name: 'Set password' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'at least 8 characters' })).toBeVisible()
    await page.getByLabel('New password for the user', { exact: true }).fill('fresh-start-77')
    await page.getByRole('button', { name: 'Set password' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible()
    expect((await backendSession(page.request, username, PASSWORD)).status).toBe(401)
    expect((await backendSession(page.request, username, 'fresh-start-77')).status).toBe(200)

    await page.getByRole('button', { name: 'Create reset link' }).click()
    await expect(page.getByText('Copy it now: it won’t be shown again.')).toBeVisible()
    const link = new URL(await page.getByTestId('reset-link').inputValue())
    expect(link.pathname).toBe('/password')
    const used = await page.request.post(`${BACKEND_URL}/auth/password_link`, {
      headers: { apikey: process.env.E2E_API_KEY ?? '' },
      data: { code: link.searchParams.get('code'), password: 'via-the-link-88' },
    })
    expect(used.status()).toBe(200)
    expect((await backendSession(page.request, username, 'via-the-link-88')).status).toBe(200)
  })

  test("edits a user's group and enabled flag", async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const username = uniquePrefix('edit', testInfo.project.name)
    await register(page.request, username)

    await page.goto(`/users?filter=${encodeURIComponent(username)}`)
    await page.getByRole('link', { name: `Edit ${username}` }).click()
    await expect(page.getByRole('heading', { name: `Edit user ${username}` })).toBeVisible()
    await expect(page.getByRole('switch', { name: 'Enabled' })).toBeChecked()
    await choose(page, 'Organisation', 'Default organisation', isJs)
    await choose(page, 'Group', 'Editors (editor)', isJs)
    await page.getByText('Enabled', { exact: true }).click()
    await page.getByRole('button', { name: 'Save user' }).click()

    await expect(page).toHaveURL(new RegExp(`/users\\?filter=${encodeURIComponent(username).replaceAll('.', '\\.')}`))
    await expect(page.getByRole('status').filter({ hasText: 'User updated' })).toBeVisible()
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: username })
    await expect(row).toContainText('Editors')
    await expect(row.getByRole('cell', { name: 'No', exact: true })).toBeVisible()

    await row.getByRole('link', { name: `Edit ${username}` }).click()
    await expect(page.getByRole('switch', { name: 'Enabled' })).not.toBeChecked()
    if (isJs) await expect(page.getByRole('button', { name: 'Group' })).toContainText('Editors (editor)')
    else await expect(page.getByLabel('Group', { exact: true }).locator('option:checked')).toHaveText('Editors (editor)')
  })

  test('offers the groups of the organisation chosen, keeping what was typed', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const username = uniquePrefix('groups', testInfo.project.name)
    await register(page.request, username)
    await page.goto(`/users?filter=${encodeURIComponent(username)}`)
    await page.getByRole('link', { name: `Edit ${username}` }).click()
    await whenHydrated(page.getByRole('button', { name: 'Save user' }), testInfo)
    await page.getByLabel('First name', { exact: true }).fill('Renamed')
    await choose(page, 'Organisation', 'Default organisation', isJs)
    const showGroups = page.getByRole('button', { name: 'Show groups of this organisation' })
    if (isJs) {
      // With scripts the groups follow the choice by themselves.
      await expect(showGroups).toHaveCount(0)
      await page.getByRole('button', { name: 'Group' }).click()
      await expect(page.getByRole('option')).toHaveText(['Administrators (admin)', 'Editors (editor)', 'Users (user)'])
      await page.keyboard.press('Escape')
    } else {
      await showGroups.click()
      await expect(page.getByLabel('Group', { exact: true }).locator('option')).toHaveText(['Administrators (admin)', 'Editors (editor)', 'Users (user)'])
      await expect(page.getByLabel('Group', { exact: true }).locator('option:checked')).toHaveText('Users (user)')
    }
    await expect(page.getByLabel('First name', { exact: true })).toHaveValue('Renamed')
  })

  test('says beside the field that an email belongs to another user', async ({ page }, testInfo) => {
    const first = uniquePrefix('owner', testInfo.project.name)
    const second = uniquePrefix('other', testInfo.project.name)
    await register(page.request, first)
    await register(page.request, second)

    await page.goto(`/users?filter=${encodeURIComponent(second)}`)
    await page.getByRole('link', { name: `Edit ${second}` }).click()
    await whenHydrated(page.getByRole('button', { name: 'Save user' }), testInfo)
    await page.getByLabel('Email', { exact: true }).fill(`${first}@example.org`)
    await page.getByRole('button', { name: 'Save user' }).click()
    await expect(page.getByText(`The email "${first}@example.org" is already taken`)).toBeVisible()
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    // Nothing else was lost.
    await expect(page.getByLabel('Username', { exact: true })).toHaveValue(second)
  })

  test('goes back to the list with the reason when a user does not exist', async ({ page }) => {
    await watchToasts(page)
    await page.goto('/users/987654')
    await expect(page).toHaveURL(/\/users$/)
    // The toast lives 2 s: on a busy machine it may be gone by the time the check comes, so what it showed is checked.
    await expectToast(page, /^(?=.*Something went wrong)(?=.*No user with id 987654)/)
  })

  test('applies the search and the column filters together, whichever button is clicked', async ({ page }, testInfo) => {
    const prefix = uniquePrefix('together', testInfo.project.name)
    for (const suffix of ['alpha', 'beta']) await register(page.request, `${prefix}.${suffix}`)
    await page.goto('/users')
    const filters = await openFilters(page)
    await page.getByRole('searchbox', { name: 'Search' }).fill(prefix)
    await filters.getByLabel('Username', { exact: true }).fill(`${prefix}.a`)
    await filters.getByRole('button', { name: 'Filter', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`filter=${prefix.replaceAll('.', '\\.')}`))
    await expect(page).toHaveURL(/username=/)
    await expect(page.getByRole('status').filter({ hasText: 'matching' })).toHaveText(`1 matching user for “${prefix}”`)

    // And the other way round: a new search keeps the column filter typed beside it.
    await (await openFilters(page)).getByLabel('Username', { exact: true }).fill(`${prefix}.b`)
    await page.getByRole('searchbox', { name: 'Search' }).fill(`${prefix}.`)
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`username=${prefix.replaceAll('.', '\\.')}\\.b`))
    await expect(page.getByRole('status').filter({ hasText: 'matching' })).toHaveText(`1 matching user for “${prefix}.”`)
    await expect(page.getByRole('table', { name: 'Users' })).toContainText(`${prefix}.beta`)
  })

  test('keeps the organisation and group chosen when a save is refused, and says the fields by their labels', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const username = uniquePrefix('keep', testInfo.project.name)
    const organisation = `Harbour ${username}`
    await register(page.request, username)
    await createOrganisationWithReviewers(page, organisation, testInfo)

    await editUser(page, username, testInfo)
    // With scripts the groups are fetched as the organisation is picked; a group is chosen once they are there.
    const groupsFetched = isJs ? page.waitForResponse((response) => response.url().includes('organization_id=')) : null
    await choose(page, 'Organisation', organisation, isJs)
    if (groupsFetched) {
      await groupsFetched
      await expect(page.getByText('Loading the groups…')).toHaveCount(0)
    } else await page.getByRole('button', { name: 'Show groups of this organisation' }).click()
    await choose(page, 'Group', 'Reviewers (user)', isJs)
    await page.getByLabel('Cellphone', { exact: true }).fill('bad phone!')
    await page.getByLabel('New password', { exact: true }).fill('onlyletters')
    await page.getByRole('button', { name: 'Save user' }).click()
    await expect(page.getByText('Cellphone may contain digits, spaces, ( ) . - and a leading + only', { exact: true })).toBeVisible()
    await expect(page.getByText('New password must contain something besides letters, such as a digit', { exact: true })).toBeVisible()
    await expect(chosen(page, 'Organisation', isJs)).toContainText(organisation)
    await expect(chosen(page, 'Group', isJs)).toContainText('Reviewers (user)')

    await page.getByLabel('Cellphone', { exact: true }).fill('')
    await page.getByLabel('New password', { exact: true }).fill('')
    await page.getByRole('button', { name: 'Save user' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'User updated' })).toBeVisible()
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: username })
    await expect(row).toContainText(organisation)
    await expect(row).toContainText('Reviewers')
  })

  test('names the organisation when the group chosen is not one of its groups', async ({ page }, testInfo) => {
    // With scripts the groups follow the organisation as it is picked, so the two cannot disagree.
    test.skip(testInfo.project.name === 'js', 'only a form without scripts can send a group of another organisation')
    const username = uniquePrefix('mismatch', testInfo.project.name)
    const organisation = `Harbour ${username}`
    await register(page.request, username)
    await createOrganisationWithReviewers(page, organisation, testInfo)

    await editUser(page, username, testInfo)
    await choose(page, 'Organisation', organisation, false)
    await choose(page, 'Group', 'Editors (editor)', false)
    await page.getByRole('button', { name: 'Save user' }).click()
    await expect(page.getByText(`The group chosen is not a group of ${organisation}: please choose one of its groups.`)).toBeVisible()
    await expect(page.getByLabel('Group', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    await expect(chosen(page, 'Organisation', false)).toHaveText(organisation)
    // The groups offered now are that organisation's.
    await expect(page.getByLabel('Group', { exact: true }).locator('option')).toContainText(['Reviewers (user)'])
  })

  test('says the refused fields of a new user by their labels, keeping what was typed', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const username = uniquePrefix('labels', testInfo.project.name)
    await page.goto('/users/new')
    await whenHydrated(page.getByRole('button', { name: 'Add user', exact: true }), testInfo)
    await choose(page, 'Role', 'Editor', isJs)
    await page.getByLabel('Username', { exact: true }).fill(username)
    await page.getByLabel('Email', { exact: true }).fill(`${username}@example.org`)
    await page.getByLabel('Cellphone', { exact: true }).fill('bad phone!')
    await page.getByLabel('Password', { exact: true }).fill('onlyletters')
    await page.getByRole('button', { name: 'Add user', exact: true }).click()
    await expect(page.getByText('Cellphone may contain digits, spaces, ( ) . - and a leading + only', { exact: true })).toBeVisible()
    await expect(page.getByText('Password must contain something besides letters, such as a digit', { exact: true })).toBeVisible()
    await expect(page.getByLabel('Username', { exact: true })).toHaveValue(username)
    await expect(chosen(page, 'Role', isJs)).toContainText('Editor')
  })
})

import { expect, test, type Locator, type Page } from '@playwright/test'
import { attemptMark, BACKEND_URL, backendSession } from './support/backend'
import { pageWidth, rowControlsOutside } from './support/checks'

// A phone held upright (SEED.md asks for every screen to be usable at this size). That no screen scrolls sideways
// here, in every theme and with scripts on and off, is checked by screen-walk.spec.ts; these are the phone's own
// behaviours.
const PHONE = { width: 390, height: 844 }

/**
 * Opens a table screen and checks that, unscrolled, every link, button and field of every row is between the window's
 * sides and inside the box the table scrolls in.
 */
async function expectRowActionsInView(page: Page, path: string, table: string, width: number) {
  await page.goto(path)
  await page.waitForLoadState('load')
  const firstRow = page.getByRole('table', { name: table }).locator('tbody tr').first()
  await expect(firstRow.locator('a[href], button, summary').first(), `${path} has a row to act on`).toBeVisible()
  expect(await rowControlsOutside(page, width), `${path} at ${width} px: controls of a row out of view`).toEqual([])
}

test.describe('Phone layout', () => {
  test.use({ viewport: PHONE })

  test('the dashboard tabs fold into a menu that opens and leads to a screen, with scripts on or off', async ({ page }) => {
    await page.goto('/ask')
    const navigation = page.getByRole('navigation', { name: 'Dashboard' })
    await expect(navigation.getByRole('link', { name: 'Logs' })).toBeHidden()
    await navigation.getByText('Menu', { exact: true }).click()
    await navigation.getByRole('link', { name: 'Logs' }).click()
    await expect(page).toHaveURL(/\/logs$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible()
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)
  })

  test('the article filters fold away until opened, and tables scroll in a box of their own', async ({ page }) => {
    await page.goto('/articles')
    const filters = page.getByRole('form', { name: 'Filter articles' })
    await expect(filters.getByLabel('Title', { exact: true })).toBeHidden()
    await page.getByText('Filter articles', { exact: true }).first().click()
    await expect(filters.getByLabel('Title', { exact: true })).toBeVisible()
    // The table keeps readable columns and scrolls inside its region, which the keyboard can reach.
    const box = page.getByRole('region', { name: 'Published articles' })
    await expect(box).toHaveAttribute('tabindex', '0')
    const { scrollWidth, clientWidth } = await box.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }))
    expect(scrollWidth).toBeGreaterThan(clientWidth)
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)
  })

  test('every table row offers its actions inside the window: nothing to scroll sideways to, with scripts on or off', async ({ page }, testInfo) => {
    // Rows in the tables that may start empty: a draft, a question in the logs, a key for integrations.
    const mark = `${testInfo.project.name} ${Date.now().toString(36)}`
    await page.goto('/articles/new')
    await page.getByLabel('Title').fill(`Phone actions draft ${mark}`)
    await page.getByLabel('Content').fill('A draft whose row is acted on from a phone.')
    await page.getByRole('button', { name: 'Save draft' }).click()
    await expect(page).toHaveURL(/\/articles\/drafts/)
    expect((await page.request.post('/ask', { form: { question: 'How do I add an article?' }, maxRedirects: 0 })).status()).toBe(302)
    await page.goto('/api-keys')
    await page.getByLabel('Name', { exact: true }).fill(`Phone actions key ${mark}`)
    await page.getByRole('button', { name: 'Create key' }).click()
    await expect(page.getByTestId('new-api-key')).toBeVisible()
    await page.goto('/organisations')
    const organisation = await page.getByRole('table', { name: 'Organisations' }).getByRole('link', { name: /^Manage / }).first().getAttribute('href')

    for (const [path, name] of [
      ['/articles', 'Published articles'],
      ['/articles/drafts', 'Drafts'],
      ['/logs', 'Query logs'],
      ['/users', 'Users'],
      ['/organisations', 'Organisations'],
      [organisation ?? '/organisations/1', 'Groups'],
      ['/api-keys', 'API keys'],
      ['/settings/templates', 'Templates'],
    ]) {
      await expectRowActionsInView(page, path, name, PHONE.width)
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)
    }

    // On a laptop's screen too, where nine columns and an e-mail address still make the users' table wider than its box.
    const LAPTOP = { width: 1366, height: 768 }
    await page.setViewportSize(LAPTOP)
    for (const [path, name] of [
      ['/users', 'Users'],
      ['/logs', 'Query logs'],
      ['/articles/drafts', 'Drafts'],
    ]) {
      await expectRowActionsInView(page, path, name, LAPTOP.width)
    }
  })

  test('the invitation codes fit a phone and a laptop: each Revoke, closed or open, inside the window and the list, with scripts on or off', async ({ page }, testInfo) => {
    // Codes in an organisation with a long name, one without a note, one with a long note and one whose note is a
    // single long word: the list at 390 px once had the confirming button of a row past its box's edge.
    const mark = `${testInfo.project.name} ${Date.now().toString(36)}`
    const admin = await backendSession(page.request, 'admin', process.env.E2E_ADMIN_PASSWORD ?? '')
    const organisationName = `The Extraordinarily Long-Named Regional Transport Authority of the Northern Waterways ${mark}`
    const organisation = await page.request.post(`${BACKEND_URL}/admin/organizations`, { headers: admin.headers, data: { name: organisationName } })
    expect(organisation.status()).toBe(200)
    const organisationId: number = (await organisation.json()).organization.id
    const notes = ['', 'For the volunteer coordinator who joins the northern branch next month, by e-mail', `invitee-${'averyverylongsinglewordnote'.repeat(3)}`]
    const invitationIds: number[] = []
    try {
      for (const note of notes) {
        const created = await page.request.post(`${BACKEND_URL}/admin/invitations`, { headers: admin.headers, data: { organization_id: organisationId, note, expires_in_days: 30 } })
        expect(created.status()).toBe(200)
        invitationIds.push((await created.json()).id)
      }
      for (const viewport of [PHONE, { width: 1366, height: 900 }]) {
        await page.setViewportSize(viewport)
        await page.goto('/users/invitations')
        await page.waitForLoadState('load')
        const where = `at ${viewport.width} px`
        const list = page.getByRole('region', { name: 'Invitations', exact: true })
        const rows = page.getByRole('table', { name: 'Invitations' }).getByRole('row').filter({ hasText: organisationName })
        await expect(rows).toHaveCount(notes.length)
        // What the screen walk checks: every control of every row (the closed disclosures' buttons too) is in view.
        expect(await rowControlsOutside(page, viewport.width), `controls out of view ${where}`).toEqual([])
        // Nothing of the list is hidden to the side: no column to scroll to.
        expect(await list.evaluate((element) => element.scrollWidth - element.clientWidth), `the list scrolls sideways ${where}`).toBeLessThanOrEqual(1)
        for (const row of await rows.all()) {
          await expectInside(row.getByText('Revoke…'), list, viewport.width, `Revoke… ${where}`)
        }
        // Opened, the confirming button is in view too.
        const row = rows.nth(notes.length - 1)
        await row.getByText('Revoke…').click()
        const revoke = row.getByRole('button', { name: 'Yes, revoke invitation' })
        await expect(revoke).toBeVisible()
        await expectInside(revoke, list, viewport.width, `Yes, revoke invitation ${where}`)
        expect(await rowControlsOutside(page, viewport.width), `controls out of view ${where}, a disclosure open`).toEqual([])
        expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width + 1)
      }
    } finally {
      // Gone again, so that the other specs read the list as they left it.
      for (const id of invitationIds) await page.request.delete(`${BACKEND_URL}/admin/invitations/${id}`, { headers: admin.headers })
      await page.request.delete(`${BACKEND_URL}/admin/organizations/${organisationId}`, { headers: admin.headers })
    }
  })

  test('a table with no rows shows its message in the window, without column titles or a sideways scroll', async ({ page }) => {
    await page.goto('/users?filter=no-such-user-anywhere')
    const table = page.getByRole('table', { name: 'Users' })
    const message = table.getByText('No user matches these filters.')
    await expect(message).toBeVisible()
    await expect(table.getByRole('columnheader')).toHaveCount(0)
    // The box the table scrolls in (the screen's section is a region named Users too).
    const box = page.locator('[role="region"][aria-label="Users"]')
    expect(await box.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(1)
    const edge = await message.boundingBox()
    expect((edge?.x ?? Infinity) + (edge?.width ?? Infinity)).toBeLessThanOrEqual(PHONE.width)
    // With rows, the column titles are there again.
    await page.goto('/users')
    await expect(table.getByRole('columnheader', { name: 'Username' })).toBeVisible()
  })

  test('table rows stay a few lines tall: a date breaks only between date and time, a long description is cut', async ({ page }) => {
    for (const [path, name] of [
      ['/users', 'Users'],
      ['/articles', 'Published articles'],
      ['/settings/templates', 'Templates'],
    ]) {
      await page.goto(path)
      await page.waitForLoadState('load')
      const row = page.getByRole('table', { name }).getByRole('row').nth(1)
      const time = row.locator('time')
      await expect(time).toBeVisible()
      // At most two lines: a date and time wrapped word by word made every row four lines (over 100 px) tall.
      const lineHeight = await time.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 24)
      expect((await time.boundingBox())?.height ?? Infinity, path).toBeLessThan(lineHeight * 2.5)
      // A template's description took fourteen lines; a title may take three.
      expect((await row.boundingBox())?.height ?? Infinity, path).toBeLessThanOrEqual(lineHeight * 5)
    }
  })
})

test.describe('Markdown where people read', () => {
  test.use({ viewport: PHONE })

  test('an article written in Markdown reads as headings, bold and lists, in the draft preview and once published', async ({ page }, testInfo) => {
    const word = `${testInfo.project.name === 'js' ? 'brambleton' : 'thistlewade'}${attemptMark(testInfo)}`
    const title = `Visiting the ${word} archive`
    const longAddress = `https://example.org/${'very-long-path-segment-'.repeat(8)}${word}`
    await page.goto('/articles/new')
    await page.getByLabel('Title').fill(title)
    await page
      .getByLabel('Content')
      .fill(
        `## Opening hours of the ${word} archive\n\nThe reading room is **open on weekdays** from nine.\n\n- Bring *a pencil*\n- Ask at the desk\n\n<script>document.title = 'injected'</script>\n\nMore at ${longAddress}`,
      )
    await page.getByRole('button', { name: 'Save draft' }).click()
    await expect(page).toHaveURL(/\/articles\/drafts/)

    // The draft's own page previews it as readers will see it.
    await page.getByRole('row').filter({ hasText: title }).getByRole('link', { name: title, exact: true }).click()
    const preview = page.getByRole('region', { name: 'Preview' })
    await expectRenderedMarkdown(page, preview, word)

    await page.goto('/articles/drafts')
    await page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Publish' }).click()
    await expect(page.getByText(/Published 1 of 1 drafts/)).toBeVisible({ timeout: 30_000 })
    await page.getByRole('list', { name: 'Published articles' }).getByRole('link', { name: title, exact: true }).click()
    const article = page.getByRole('article', { name: title })
    await expectRenderedMarkdown(page, article, word)
    expect(await pageWidth(page), 'a long address wraps instead of widening the page').toBeLessThanOrEqual(PHONE.width + 1)

    // The answer drawn from it is Markdown too.
    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill(`When is the ${word} archive reading room open?`)
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer).toContainText('open on weekdays')
    expect(await answer.innerText()).not.toMatch(/\*\*|##/)
  })
})

async function expectRenderedMarkdown(page: Page, container: ReturnType<Page['getByRole']>, word: string) {
  await expect(container.getByRole('heading', { name: `Opening hours of the ${word} archive` })).toBeVisible()
  await expect(container.locator('strong', { hasText: 'open on weekdays' })).toBeVisible()
  await expect(container.locator('em', { hasText: 'a pencil' })).toBeVisible()
  await expect(container.getByRole('listitem').filter({ hasText: 'Ask at the desk' })).toBeVisible()
  const text = await container.innerText()
  expect(text).not.toMatch(/\*\*|##/)
  // A script in the content is neither run nor shown: HTML is read for its words, and a script has none.
  expect(text).not.toMatch(/<script|injected/)
  await expect(container.getByText('Ask at the desk')).toBeVisible()
  expect(await page.title()).not.toBe('injected')
}

/** The control lies wholly between the window's sides and inside the container's box. */
async function expectInside(control: Locator, container: Locator, windowWidth: number, what: string) {
  const box = await control.boundingBox()
  const outer = await container.boundingBox()
  expect(box, what).not.toBeNull()
  expect(outer, what).not.toBeNull()
  const left = Math.max(0, outer!.x)
  const right = Math.min(windowWidth, outer!.x + outer!.width)
  expect(box!.x, `${what}: its left edge`).toBeGreaterThanOrEqual(left - 1)
  expect(box!.x + box!.width, `${what}: its right edge`).toBeLessThanOrEqual(right + 1)
}

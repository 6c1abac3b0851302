import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

const PASSWORD = 'garden-path-42'

/** Picks an option: a native <select> without scripts, the react-aria listbox with them. */
async function choose(page: Page, label: string, option: string, isJs: boolean) {
  if (isJs) {
    await page.getByRole('button', { name: label }).click()
    await page.getByRole('option', { name: option, exact: true }).click()
  } else {
    await page.getByLabel(label, { exact: true }).selectOption({ label: option })
  }
}

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

test.describe('Users', () => {
  test('filters users and pages them 30 at a time', async ({ page }, testInfo) => {
    test.setTimeout(120_000)
    const prefix = uniquePrefix('pager', testInfo.project.name)
    for (let index = 0; index < 31; index++) await register(page.request, `${prefix}.u${String(index).padStart(2, '0')}`)

    await page.goto('/users')
    await page.getByRole('searchbox', { name: 'Filter' }).fill(prefix)
    await page.getByRole('button', { name: 'Filter', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`filter=${prefix.replaceAll('.', '\\.')}`))
    const table = page.getByRole('table', { name: 'Users' })
    await expect(page.getByText(`1–30 of 31 users matching “${prefix}”`)).toBeVisible()
    await expect(table.getByRole('row')).toHaveCount(31) // the header and 30 users

    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Next' }).click()
    await expect(page).toHaveURL(/first=30/)
    await expect(page.getByText(`31–31 of 31 users matching “${prefix}”`)).toBeVisible()
    await expect(table.getByRole('row')).toHaveCount(2)
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Previous' }).click()
    await expect(page).toHaveURL(/first=0/)

    await page.getByRole('searchbox', { name: 'Filter' }).fill(`${prefix}.u07`)
    await page.getByRole('button', { name: 'Filter', exact: true }).click()
    await expect(table.getByRole('row')).toHaveCount(2)
    await expect(table).toContainText(`${prefix}.u07`)
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
    await page.getByLabel('Email', { exact: true }).fill(`${first}@example.org`)
    await page.getByRole('button', { name: 'Save user' }).click()
    await expect(page.getByText(`The email "${first}@example.org" is already taken`)).toBeVisible()
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    // Nothing else was lost.
    await expect(page.getByLabel('Username', { exact: true })).toHaveValue(second)
  })

  test('goes back to the list with the reason when a user does not exist', async ({ page }) => {
    await page.goto('/users/987654')
    await expect(page).toHaveURL(/\/users$/)
    await expect(page.getByRole('status').filter({ hasText: 'No user with id 987654' })).toContainText('Something went wrong')
  })
})

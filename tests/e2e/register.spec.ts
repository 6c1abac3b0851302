import { expect, test, type Page } from '@playwright/test'

const PASSWORD = 'garden-path-42'

/** A username of its own per project and test, so runs never collide. */
const uniqueName = (prefix: string, project: string) => `${prefix}.${project}.${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`

async function fillRegistration(page: Page, person: { username: string; email: string; password?: string; again?: string }) {
  await page.getByLabel('Username', { exact: true }).fill(person.username)
  await page.getByLabel('Email', { exact: true }).fill(person.email)
  await page.getByLabel('First name', { exact: true }).fill('Ada')
  await page.getByLabel('Last name', { exact: true }).fill('Lovelace')
  await page.getByLabel('Cellphone', { exact: true }).fill('+44 20 7946 0958')
  await page.getByLabel('Password', { exact: true }).fill(person.password ?? PASSWORD)
  await page.getByLabel('Password again', { exact: true }).fill(person.again ?? person.password ?? PASSWORD)
}

test.describe('Register', () => {
  test('registers an enabled user into the organisation registration opens into, never one of their choosing', async ({ page }, testInfo) => {
    const username = uniqueName('ada', testInfo.project.name)
    await page.goto('/register')
    await expect(page.getByText('Create an account in Default organisation.')).toBeVisible()
    await expect(page.getByLabel('Organisation')).toHaveCount(0)
    await fillRegistration(page, { username, email: `${username}@example.org` })
    await page.getByRole('button', { name: 'Register' }).click()

    await expect(page).toHaveURL(/\/register$/)
    await expect(page.getByRole('status').filter({ hasText: 'User registered' })).toBeVisible()
    // The form is empty again for the next person.
    await expect(page.getByLabel('Username', { exact: true })).toHaveValue('')

    await page.goto(`/users?filter=${encodeURIComponent(username)}`)
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: username })
    await expect(row.getByRole('cell', { name: 'Ada', exact: true })).toBeVisible()
    await expect(row.getByRole('cell', { name: 'Lovelace', exact: true })).toBeVisible()
    await expect(row).toContainText('Default organisation')
    await expect(row).toContainText('Users')
    await expect(row.getByRole('cell', { name: 'Yes', exact: true })).toBeVisible()
  })

  test('marks the fields that must be filled, and only those', async ({ page }) => {
    await page.goto('/register')
    const markOf = (label: string) =>
      page.getByLabel(label, { exact: true }).locator('xpath=ancestor::div[1]').locator('[data-required-mark]')
    for (const label of ['Username', 'Email', 'First name', 'Last name', 'Password', 'Password again']) {
      await expect(markOf(label), label).toHaveText('Required')
      await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('required', '')
    }
    await expect(markOf('Cellphone')).toHaveCount(0)
  })

  test('says beside the field that a username or an email is taken', async ({ page }, testInfo) => {
    const username = uniqueName('grace', testInfo.project.name)
    const email = `${username}@example.org`
    await page.goto('/register')
    await fillRegistration(page, { username, email })
    await page.getByRole('button', { name: 'Register' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'User registered' })).toBeVisible()

    await fillRegistration(page, { username: username.toUpperCase(), email: `other.${email}` })
    await page.getByRole('button', { name: 'Register' }).click()
    await expect(page.getByText(`The username "${username.toUpperCase()}" is already taken`)).toBeVisible()
    await expect(page.getByLabel('Username', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    // What was typed stays, except the passwords.
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(`other.${email}`)
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('')

    await fillRegistration(page, { username: `${username}.2`, email })
    await page.getByRole('button', { name: 'Register' }).click()
    await expect(page.getByText(`The email "${email}" is already taken`)).toBeVisible()
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  })

  test('refuses a weak password and passwords that differ, beside the fields', async ({ page }, testInfo) => {
    const username = uniqueName('weak', testInfo.project.name)
    await page.goto('/register')
    await fillRegistration(page, { username, email: `${username}@example.org`, password: 'onlyletters' })
    await page.getByRole('button', { name: 'Register' }).click()
    await expect(page.getByText('password must contain something besides letters, such as a digit')).toBeVisible()
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true')

    await fillRegistration(page, { username, email: `${username}@example.org`, password: PASSWORD, again: `${PASSWORD}!` })
    await page.getByRole('button', { name: 'Register' }).click()
    await expect(page.getByText('The two passwords differ')).toBeVisible()

    await page.goto(`/users?filter=${encodeURIComponent(username)}`)
    await expect(page.getByRole('table', { name: 'Users' })).not.toContainText(username)
  })

  test('an organisation or a role sent with a forged form is ignored: the account is a user where registration puts it', async ({ page }, testInfo) => {
    const username = uniqueName('forged', testInfo.project.name)
    const response = await page.request.post('/register', {
      form: {
        username,
        email: `${username}@example.org`,
        firstName: 'Forged',
        lastName: 'Form',
        cellphone: '',
        password: PASSWORD,
        password_again: PASSWORD,
        organization: '987654',
        'organizations[0]': '987654',
        role: 'admin',
      },
      maxRedirects: 0,
    })
    expect(response.status()).toBe(302)
    await page.goto(`/users?filter=${encodeURIComponent(username)}`)
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: username })
    await expect(row).toContainText('Default organisation')
    await expect(row).toContainText('Users')
  })
})

import { expect, test, type Page } from '@playwright/test'

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
  test('registers an enabled user in the chosen organisation', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const username = uniqueName('ada', testInfo.project.name)
    await page.goto('/register')
    await fillRegistration(page, { username, email: `${username}@example.org` })
    await choose(page, 'Organisation', 'Default organisation', isJs)
    await page.getByRole('button', { name: 'Register' }).click()

    await expect(page).toHaveURL(/\/register$/)
    await expect(page.getByRole('status').filter({ hasText: 'User registered' })).toBeVisible()
    // The form is empty again for the next person.
    await expect(page.getByLabel('Username', { exact: true })).toHaveValue('')

    await page.goto(`/users?filter=${encodeURIComponent(username)}`)
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: username })
    await expect(row).toContainText('Ada Lovelace')
    await expect(row).toContainText('Default organisation')
    await expect(row).toContainText('Users')
    await expect(row.getByRole('cell', { name: 'Yes', exact: true })).toBeVisible()
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

  test('says beside the organisation when it does not exist', async ({ page }, testInfo) => {
    // A forged form (the page only offers real organisations): the backend's refusal lands on the field.
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
      },
      maxRedirects: 0,
    })
    expect(response.status()).toBe(400)
    const html = await response.text()
    expect(html).toContain('No organisation with id 987654')
    expect(html).toMatch(/id="register-organization-error"[^>]*>No organisation with id 987654/)
  })
})

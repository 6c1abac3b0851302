import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { isPostgresAvailable, startTestBackend, TEST_API_KEY, type TestBackend } from '../../backend/src/testing/test-backend'

// The registration page's server side against the real backend under each policy: never an organisation from the
// form, the invitation code when the backend asks for one, and a plain refusal while registration is closed.

type RegisterRoute = typeof import('./register-route.server')

/** The route module, loaded afresh for this backend (the web configuration is read once per module load). */
async function routeFor(server: TestBackend): Promise<RegisterRoute> {
  Object.assign(process.env, { API_BASE_URL: server.baseUrl, API_KEY: TEST_API_KEY, AUTH_ENABLED: 'true', NODE_ENV: 'test' })
  vi.resetModules()
  return import('./register-route.server')
}

const registration = (fields: Record<string, string>) =>
  new Request('http://127.0.0.1/register', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })

const person = (username: string) => ({
  username,
  email: `${username}@example.test`,
  firstName: 'Ada',
  lastName: 'Lovelace',
  cellphone: '',
  password: 'garden-path-42',
  password_again: 'garden-path-42',
})

interface Reply {
  result: { status?: string; error?: Record<string, string[] | null> }
}

const storage = async () => ((await isPostgresAvailable()) ? 'postgres' : 'pglite')

describe('registration by invitation', () => {
  let server: TestBackend
  let route: RegisterRoute
  beforeAll(async () => {
    server = await startTestBackend(await storage(), { REGISTRATION_POLICY: 'invite' })
    route = await routeFor(server)
  })
  afterAll(() => server?.stop())

  it('offers the invitation code, and refuses a registration without a valid one beside the field', async () => {
    const screen = await (await route.loadRegisterScreen(new Request('http://127.0.0.1/register'))).json()
    expect(screen.registration?.policy).toBe('invite')
    expect(screen.invitation).toBe('')

    const withoutCode = await route.actRegister(registration(person('no.code')))
    expect(withoutCode.status).toBe(400)
    expect(((await withoutCode.json()) as Reply).result.error?.invitation).toEqual(['Please enter your invitation code'])

    const wrongCode = await route.actRegister(registration({ ...person('wrong.code'), invitation: 'not-a-code' }))
    expect(wrongCode.status).toBe(400)
    expect(((await wrongCode.json()) as Reply).result.error?.invitation?.length).toBeGreaterThan(0)
  })

  it('fills in the code a link to the page carries, and ignores one that could not be a code', async () => {
    const linked = await (await route.loadRegisterScreen(new Request('http://127.0.0.1/register?invitation=%20Ab-9_cd%20'))).json()
    expect(linked.invitation).toBe('Ab-9_cd')
    const tooLong = await (await route.loadRegisterScreen(new Request(`http://127.0.0.1/register?invitation=${'x'.repeat(201)}`))).json()
    expect(tooLong.invitation).toBe('')
    const withNul = await (await route.loadRegisterScreen(new Request('http://127.0.0.1/register?invitation=a%00b'))).json()
    expect(withNul.invitation).toBe('')
  })

  it("registers with the code into the invitation's organisation as a user, whatever organisation the form names", async () => {
    const organizations = (await server.call('/organizations', { as: 'anonymous' })).body as { id: number; name: string }[]
    const invited = await server.call('/admin/invitations', { method: 'POST', body: { organization_id: organizations[0].id } })
    expect(invited.status).toBe(200)
    const registered = await route.actRegister(
      registration({ ...person('invited.person'), invitation: invited.body.code, organization: '987654', 'organizations[0]': '987654', role: 'admin' }),
    )
    expect(registered.status).toBe(302)
    // Signed in at once with the new password, and on to Ask with the session cookie.
    expect(registered.headers.get('location')).toBe('/ask')
    expect(registered.headers.get('set-cookie')).toMatch(/__session=/)
    const page = (await server.call('/admin/users?filter=invited.person')).body as { users: { username: string; organization_id: number; role?: string; group_id: number }[] }
    const [account] = page.users
    expect(account.username).toBe('invited.person')
    expect(account.organization_id).toBe(organizations[0].id)
    const groups = (await server.call(`/admin/groups/${account.organization_id}`)).body as { id: number; role: string }[]
    expect(groups.find((group) => group.id === account.group_id)?.role).toBe('user')
  })
})

describe('registration closed', () => {
  let server: TestBackend
  let route: RegisterRoute
  beforeAll(async () => {
    server = await startTestBackend(await storage(), { REGISTRATION_POLICY: 'off' })
    route = await routeFor(server)
  })
  afterAll(() => server?.stop())

  it('says so, and a registration sent anyway is refused with 403 and creates nobody', async () => {
    const screen = await (await route.loadRegisterScreen(new Request('http://127.0.0.1/register'))).json()
    expect(screen.registration?.policy).toBe('off')
    const refused = await route.actRegister(registration(person('closed.door')))
    expect(refused.status).toBe(403)
    expect(JSON.stringify(await refused.json())).toContain('Registration is closed')
    const page = (await server.call('/admin/users?filter=closed.door')).body as { users: unknown[] }
    expect(page.users).toEqual([])
  })
})

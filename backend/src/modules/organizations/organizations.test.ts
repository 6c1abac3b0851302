import { expect, it } from 'vitest'
import { forEachStorage } from '../../testing/test-backend'

forEachStorage('organisations and groups', ({ server }) => {
  const createOrganization = (name: string) => server().call('/admin/organizations', { method: 'POST', body: { name } })
  const groupsOf = async (organizationId: number) => (await server().call(`/admin/groups/${organizationId}`)).body as { id: number; name: string; role: string; organization_id: number }[]
  const defaultOrganizationId = async () => (await server().backend.db.query<{ id: number }>(`SELECT id FROM organizations ORDER BY id LIMIT 1`))[0].id

  it('creates an organisation with its three role groups, listed publicly and by the groups call', async () => {
    const created = await createOrganization('  Harbour Agency ')
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ success: true, organization: { name: 'Harbour Agency' } })
    const id = created.body.organization.id
    const groups = await groupsOf(id)
    expect(groups.map((group) => [group.name, group.role])).toEqual([
      ['Administrators', 'admin'],
      ['Editors', 'editor'],
      ['Users', 'user'],
    ])
    // The existing call keeps its shape: id, name, role, organization_id.
    for (const group of groups) expect(Object.keys(group).sort()).toEqual(['id', 'name', 'organization_id', 'role'])
    expect(groups.every((group) => group.organization_id === id)).toBe(true)
    expect(created.body.groups).toEqual(groups)

    const listed = await server().call('/organizations', { as: 'anonymous' })
    expect(listed.body).toContainEqual({ id, name: 'Harbour Agency' })

    // A user can be placed in the new organisation's user group, and signs in with that role.
    const member = await server().createUser('editor', { organizationId: id })
    const me = await server().call('/auth/me', { as: member })
    expect(me.body).toMatchObject({ role: 'editor', organization_id: id })
  })

  it('refuses a duplicate name whatever its case, and a blank or missing name', async () => {
    expect((await createOrganization('Duplicate Test Org')).status).toBe(200)
    const again = await createOrganization('duplicate TEST org')
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ success: false, message: 'An organisation named "Duplicate Test Org" already exists' })
    expect((await createOrganization('DEFAULT ORGANISATION')).status).toBe(409)
    expect((await createOrganization('   ')).status).toBe(400)
    expect((await server().call('/admin/organizations', { method: 'POST', body: {} })).status).toBe(400)
    expect((await createOrganization('x'.repeat(101))).status).toBe(400)
  })

  it('renames an organisation, refusing the name of another', async () => {
    const id = (await createOrganization('Rename Me')).body.organization.id
    const renamed = await server().call(`/admin/organizations/${id}`, { method: 'PUT', body: { name: 'Renamed Agency' } })
    expect(renamed.status).toBe(200)
    expect(renamed.body.organization).toEqual({ id, name: 'Renamed Agency' })
    // Its own name in another case is no conflict.
    expect((await server().call(`/admin/organizations/${id}`, { method: 'PUT', body: { name: 'RENAMED agency' } })).status).toBe(200)
    const clash = await server().call(`/admin/organizations/${id}`, { method: 'PUT', body: { name: 'default organisation' } })
    expect(clash.status).toBe(409)
    expect((await server().call('/admin/organizations/987654', { method: 'PUT', body: { name: 'Nowhere' } })).status).toBe(404)
    expect((await server().call('/admin/organizations/abc', { method: 'PUT', body: { name: 'Nowhere' } })).status).toBe(400)
    expect((await server().call('/organizations', { as: 'anonymous' })).body).toContainEqual({ id, name: 'RENAMED agency' })
  })

  it('refuses to delete an organisation that still has users, groups or query logs, saying how many, then deletes it once emptied', async () => {
    const id = (await createOrganization('Busy Agency')).body.organization.id
    const member = await server().createUser('user', { organizationId: id })
    const extra = await server().call(`/admin/groups/${id}`, { method: 'POST', body: { name: 'Reviewers', role: 'editor' } })
    expect(extra.status).toBe(200)
    const asked = await server().call('/ask_qa', { method: 'POST', body: { command: 'Where is the harbour office?' }, as: member })
    expect(asked.status).toBe(200)

    const refused = await server().call(`/admin/organizations/${id}`, { method: 'DELETE' })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toBe(
      'Organisation "Busy Agency" still has 1 user, 1 group besides its role groups and 1 query log: move or delete them before deleting the organisation',
    )

    // Move the user and the log elsewhere, delete the extra group: only the role groups are left.
    const home = await defaultOrganizationId()
    const [userGroup] = (await groupsOf(home)).filter((group) => group.role === 'user')
    await server().backend.db.query(`UPDATE users SET organization_id = $1, group_id = $2 WHERE id = $3`, [home, userGroup.id, member.id])
    const stillLogs = await server().call(`/admin/organizations/${id}`, { method: 'DELETE' })
    expect(stillLogs.body.message).toContain('still has 1 group besides its role groups and 1 query log:')
    await server().backend.db.query(`UPDATE query_logs SET organization_id = $1 WHERE organization_id = $2`, [home, id])
    expect((await server().call(`/admin/groups/${id}/${extra.body.group.id}`, { method: 'DELETE' })).status).toBe(200)

    const deleted = await server().call(`/admin/organizations/${id}`, { method: 'DELETE' })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toMatchObject({ success: true, id, message: 'Organisation "Busy Agency" deleted' })
    expect((await server().call('/organizations', { as: 'anonymous' })).body.map((organization: { id: number }) => organization.id)).not.toContain(id)
    expect((await server().call(`/admin/groups/${id}`)).status).toBe(404)
    expect((await server().call(`/admin/organizations/${id}`, { method: 'DELETE' })).status).toBe(404)
  })

  it('refuses to delete an organisation with a live API key; once revoked, the key and its account go with it', async () => {
    const id = (await createOrganization('Keyed Agency')).body.organization.id
    const key = await server().call('/admin/api_keys', { method: 'POST', body: { name: 'Feed', role: 'user', organization_id: id } })
    expect(key.status).toBe(200)
    const refused = await server().call(`/admin/organizations/${id}`, { method: 'DELETE' })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toContain('still has 1 API key:')
    expect((await server().call(`/admin/api_keys/${key.body.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await server().call(`/admin/organizations/${id}`, { method: 'DELETE' })).status).toBe(200)
    expect(await server().backend.db.query(`SELECT 1 FROM users WHERE organization_id = $1`, [id])).toEqual([])
  })

  it('creates, renames, re-roles and deletes groups, guarding the built-in role groups and groups with members', async () => {
    const id = (await createOrganization('Group Agency')).body.organization.id
    const created = await server().call(`/admin/groups/${id}`, { method: 'POST', body: { name: 'Field staff', role: 'user' } })
    expect(created.status).toBe(200)
    expect(created.body.group).toMatchObject({ name: 'Field staff', role: 'user', organization_id: id })
    const groupId = created.body.group.id
    expect((await groupsOf(id)).map((group) => group.name)).toContain('Field staff')

    expect((await server().call(`/admin/groups/${id}`, { method: 'POST', body: { name: 'FIELD STAFF', role: 'editor' } })).status).toBe(409)
    expect((await server().call(`/admin/groups/${id}`, { method: 'POST', body: { name: 'Bosses', role: 'owner' } })).status).toBe(400)
    expect((await server().call(`/admin/groups/${id}`, { method: 'POST', body: { role: 'user' } })).status).toBe(400)
    expect((await server().call('/admin/groups/987654', { method: 'POST', body: { name: 'Ghosts', role: 'user' } })).status).toBe(404)

    // A member of the group gets the group's role; changing the role applies to the member's next call.
    const member = await server().createUser('user', { organizationId: id })
    await server().backend.db.query(`UPDATE users SET group_id = $1 WHERE id = $2`, [groupId, member.id])
    expect((await server().call('/admin/get_temp_articles', { as: member })).status).toBe(403)
    const promoted = await server().call(`/admin/groups/${id}/${groupId}`, { method: 'PUT', body: { role: 'editor' } })
    expect(promoted.status).toBe(200)
    expect(promoted.body.group).toMatchObject({ id: groupId, name: 'Field staff', role: 'editor' })
    expect((await server().call('/admin/get_temp_articles', { as: member })).status).toBe(200)

    const renamed = await server().call(`/admin/groups/${id}/${groupId}`, { method: 'PUT', body: { name: 'Field editors' } })
    expect(renamed.body.group).toMatchObject({ name: 'Field editors', role: 'editor' })
    expect((await server().call(`/admin/groups/${id}/${groupId}`, { method: 'PUT', body: {} })).status).toBe(400)
    expect((await server().call(`/admin/groups/${id}/${groupId}`, { method: 'PUT', body: { name: 'editors' } })).status).toBe(409)

    const withMember = await server().call(`/admin/groups/${id}/${groupId}`, { method: 'DELETE' })
    expect(withMember.status).toBe(409)
    expect(withMember.body.message).toBe('Group "Field editors" still has 1 user: move them to another group first')

    const builtin = (await groupsOf(id)).find((group) => group.role === 'admin')!
    const deleteBuiltin = await server().call(`/admin/groups/${id}/${builtin.id}`, { method: 'DELETE' })
    expect(deleteBuiltin.status).toBe(409)
    expect((await server().call(`/admin/groups/${id}/${builtin.id}`, { method: 'PUT', body: { role: 'user' } })).status).toBe(409)
    expect((await server().call(`/admin/groups/${id}/${builtin.id}`, { method: 'PUT', body: { name: 'Managers' } })).status).toBe(200)

    // A group id that belongs to another organisation is not found here.
    const home = await defaultOrganizationId()
    expect((await server().call(`/admin/groups/${home}/${groupId}`, { method: 'DELETE' })).status).toBe(404)

    await server().backend.db.query(`UPDATE users SET group_id = (SELECT id FROM groups WHERE organization_id = $1 AND role = 'user' ORDER BY id LIMIT 1) WHERE id = $2`, [
      id,
      member.id,
    ])
    const deleted = await server().call(`/admin/groups/${id}/${groupId}`, { method: 'DELETE' })
    expect(deleted.status).toBe(200)
    expect((await groupsOf(id)).map((group) => group.id)).not.toContain(groupId)
    expect((await server().call(`/admin/groups/${id}/${groupId}`, { method: 'DELETE' })).status).toBe(404)
  })

  it('keeps these calls to administrators', async () => {
    const editor = await server().createUser('editor')
    expect((await server().call('/admin/organizations', { method: 'POST', body: { name: 'Editor Org' }, as: editor })).status).toBe(403)
    expect((await server().call('/admin/organizations', { method: 'POST', body: { name: 'Anon Org' }, as: 'anonymous' })).status).toBe(401)
    expect((await server().call('/organizations', { as: 'anonymous' })).body.map((organization: { name: string }) => organization.name)).not.toContain('Editor Org')
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../db/database'
import { isPostgresAvailable, openTwoHandles, type StorageKind } from '../../testing/test-backend'
import { OrganizationsService } from '../organizations/organizations.service'
import { SettingsService } from './settings.service'

const postgresAvailable = await isPostgresAvailable()

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe.skipIf(kind === 'postgres' && !postgresAvailable)(`partial updates saved at once, on ${kind}`, () => {
    // Two handles on one database, as two API processes have (on PGlite, one process: the same handle twice).
    let first: Database
    let second: Database
    let close: (() => Promise<void>) | undefined
    beforeAll(async () => {
      ;({ first, second, close } = await openTwoHandles(kind))
    })
    afterAll(async () => {
      await close?.()
    })

    it('keeps every field of bot settings two processes change together', async () => {
      const one = new SettingsService(first)
      const other = new SettingsService(second)
      for (let round = 0; round < 15; round++) {
        await Promise.all([one.updateBotSettings({ bot_description: `desc-${round}` }), other.updateBotSettings({ bot_who_am_i: `who-${round}` })])
        const stored = await new SettingsService(first).botSettings()
        expect({ round, description: stored.bot_description, whoAmI: stored.bot_who_am_i }).toEqual({ round, description: `desc-${round}`, whoAmI: `who-${round}` })
      }
    })

    it('keeps every field of agent settings two processes change together', async () => {
      const one = new SettingsService(first)
      const other = new SettingsService(second)
      for (let round = 0; round < 10; round++) {
        await Promise.all([
          one.updateAgentSettings({ query_shortcut_1_query: `first-${round}` }),
          other.updateAgentSettings({ query_shortcut_2_query: `second-${round}` }),
          one.updateAgentSettings({ max_iteration: round }),
        ])
        const stored = await new SettingsService(second).agentSettings()
        expect({ round, first: stored.query_shortcut_1_query, second: stored.query_shortcut_2_query, iterations: stored.max_iteration }).toEqual({
          round,
          first: `first-${round}`,
          second: `second-${round}`,
          iterations: round,
        })
      }
    })

    it("keeps both a group's new name and its new role when they are saved at once", async () => {
      const one = new OrganizationsService(first)
      const other = new OrganizationsService(second)
      const { organization } = await one.create(`Concurrent ${kind}`)
      const group = await one.createGroup(organization.id, { name: 'Volunteers', role: 'user' })
      for (let round = 0; round < 10; round++) {
        const role = round % 2 === 0 ? 'editor' : 'user'
        await Promise.all([one.updateGroup(organization.id, group.id, { name: `Volunteers ${round}` }), other.updateGroup(organization.id, group.id, { role })])
        const [stored] = await first.query<{ name: string; role: string }>(`SELECT name, role FROM groups WHERE id = $1`, [group.id])
        expect({ round, ...stored }).toEqual({ round, name: `Volunteers ${round}`, role })
      }
    })
  })
}

import { describe, expect, it } from 'vitest'
import { templateChoicesOf } from './agents.server'

describe('the government agent’s template choices', () => {
  it('leaves out a template without sections, which the agent could not fill', () => {
    const rows = [
      { id: 1, name: 'Starter briefing', sections: [{ title: 'Summary', instructions: '' }] },
      { id: 2, name: 'Left empty', sections: [] },
      { id: 3, name: 'Press release', sections: [{ title: 'Headline', instructions: 'One line.' }] },
    ]
    expect(templateChoicesOf(rows)).toEqual([
      { id: 1, name: 'Starter briefing' },
      { id: 3, name: 'Press release' },
    ])
  })
})

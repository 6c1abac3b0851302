import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { forEachStorage, publishArticles, startTestBackend, TEST_API_KEY, type Caller, type TestBackend } from '../../testing/test-backend'

const RENEWALS = [
  { title: 'Passport renewal', content: 'To renew a passport, fill in the renewal form and send two recent photos. How long a passport renewal takes: about six weeks.' },
  { title: 'Driving licence renewal', content: 'To renew a driving licence, book an eye test first. How long a driving licence renewal takes: about two weeks.' },
  { title: 'Library cards', content: 'A library card is free for residents and lets you borrow ten books at a time.' },
  {
    title: 'Accounts',
    content:
      '## Add an account\n\n1. Open Accounts.\n2. Select New account and enter the name.\n\n' +
      '## Close an account\n\nTo close an account, open it and select Disable. A disabled account cannot sign in.',
  },
  { title: 'Teams', content: 'To close a team, open it and select Archive. An archived team keeps its history. To add a team, open Teams and select New team.' },
  { title: 'Shortcuts', content: 'Each shortcut can be enabled or disabled, so you may see none, one, two or three of them.' },
]

const FOLLOW_UP = 'And how long does it take?'

forEachStorage('conversation threads', ({ server }) => {
  let owner: Caller
  let stranger: Caller

  beforeAll(async () => {
    await publishArticles(server(), RENEWALS)
    await server().call('/admin/bot_setting', { method: 'PUT', body: { score_threshold: 0, num_sources_k: 3, semantic_firewall: false } })
    owner = await server().createUser('user')
    stranger = await server().createUser('user')
  })

  const ask = async (command: string, as: Caller, threadId?: number) =>
    server().call('/ask_qa', { method: 'POST', body: { command, ...(threadId ? { thread_id: threadId } : {}) }, as })

  /** Asks a question, then a follow-up in its thread, found in the thread from the article titled `title`. */
  const askInThread = async (question: string, followUpQuestion: string, title: string) => {
    const first = await ask(question, owner)
    const followUp = await ask(followUpQuestion, owner, first.body.thread_id)
    expect(followUp.body).toMatchObject({ success: true, found: true, thread_id: first.body.thread_id })
    expect(followUp.body.source_list[0].metadata.title).toBe(title)
    return followUp
  }

  describe('POST /ask_qa with thread_id', () => {
    it('starts a thread with a first question, named by its log id', async () => {
      const first = await ask('How do I renew my passport?', owner)
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ success: true, thread_id: first.body.log_id })
    })

    it('reads a follow-up with the earlier question: the same words find the passage of the thread they follow', async () => {
      const passport = await ask('How do I renew my passport?', owner)
      const licence = await ask('How do I renew my driving licence?', owner)
      const passportFollowUp = await ask(FOLLOW_UP, owner, passport.body.thread_id)
      const licenceFollowUp = await ask(FOLLOW_UP, owner, licence.body.thread_id)
      expect(passportFollowUp.body).toMatchObject({ success: true, found: true, thread_id: passport.body.thread_id })
      expect(licenceFollowUp.body).toMatchObject({ success: true, found: true, thread_id: licence.body.thread_id })
      expect(passportFollowUp.body.source_list[0].metadata.title).toBe('Passport renewal')
      expect(passportFollowUp.body.result).toContain('six weeks')
      expect(licenceFollowUp.body.source_list[0].metadata.title).toBe('Driving licence renewal')
      expect(licenceFollowUp.body.result).toContain('two weeks')
      // Asked alone, the follow-up does not know which renewal it is about: at most one of the two threads' answers.
      const alone = await ask(FOLLOW_UP, owner)
      expect(alone.body.thread_id).toBe(alone.body.log_id)
      const aloneFirst = alone.body.source_list[0]?.metadata.title
      expect([passportFollowUp.body.source_list[0].metadata.title, licenceFollowUp.body.source_list[0].metadata.title].filter((title) => title === aloneFirst).length).toBeLessThanOrEqual(1)
    })

    it('reads a pronoun the follow-up acts on as what the earlier question named', async () => {
      const followUp = await askInThread('How do I add an account?', 'And how do I disable one?', 'Accounts')
      expect(followUp.body.result).toContain('select Disable')
      expect(followUp.body.result).not.toContain('shortcut')
    })

    it('asks the earlier question again about what a follow-up names instead ("What about a team?")', async () => {
      const followUp = await askInThread('How do I add an account?', 'What about a team?', 'Teams')
      expect(followUp.body.result).toContain('select New team')
      expect(followUp.body.result).not.toContain('Archive')
    })

    it("refuses to continue another user's thread or one that does not exist, as not found", async () => {
      const first = await ask('How do I renew my passport?', owner)
      const foreign = await ask(FOLLOW_UP, stranger, first.body.thread_id)
      expect(foreign.status).toBe(404)
      expect(foreign.body).toMatchObject({ success: false, message: `No thread ${first.body.thread_id}` })
      expect((await ask(FOLLOW_UP, owner, 2_000_000_000)).status).toBe(404)
      // A follow-up is a thread's turn, not a thread of its own.
      const followUp = await ask(FOLLOW_UP, owner, first.body.thread_id)
      expect((await ask(FOLLOW_UP, owner, followUp.body.log_id)).status).toBe(404)
      expect((await server().call('/ask_qa', { method: 'POST', body: { command: FOLLOW_UP, thread_id: 'first' }, as: owner })).status).toBe(400)
    })

    it('streams a follow-up in its thread, read with the earlier question', async () => {
      const first = await ask('How do I renew my driving licence?', owner)
      const response = await fetch(`${server().baseUrl}/ask_qa_stream`, {
        method: 'POST',
        headers: { apikey: TEST_API_KEY, 'content-type': 'application/json', authorization: `Bearer ${(owner as { token: string }).token}` },
        body: JSON.stringify({ command: FOLLOW_UP, thread_id: first.body.thread_id }),
      })
      const text = await response.text()
      const done = JSON.parse(/event: done\ndata: (.+)/.exec(text)![1])
      expect(done).toMatchObject({ thread_id: first.body.thread_id, found: true })
      expect(done.source_list[0].metadata.title).toBe('Driving licence renewal')
      const refused = await fetch(`${server().baseUrl}/ask_qa_stream`, {
        method: 'POST',
        headers: { apikey: TEST_API_KEY, 'content-type': 'application/json', authorization: `Bearer ${(stranger as { token: string }).token}` },
        body: JSON.stringify({ command: FOLLOW_UP, thread_id: first.body.thread_id }),
      })
      expect(refused.status).toBe(404)
    })
  })

  describe('GET /ask_thread and GET /ask_threads', () => {
    it("gives the owner the thread's questions and answers in order, and nobody else", async () => {
      const first = await ask('How do I renew my passport?', owner)
      const second = await ask(FOLLOW_UP, owner, first.body.thread_id)
      const thread = await server().call(`/ask_thread?thread_id=${first.body.thread_id}`, { as: owner })
      expect(thread.status).toBe(200)
      expect(thread.body.thread_id).toBe(first.body.thread_id)
      expect(thread.body.turns.map((turn: { log_id: number; command: string }) => [turn.log_id, turn.command])).toEqual([
        [first.body.log_id, 'How do I renew my passport?'],
        [second.body.log_id, FOLLOW_UP],
      ])
      expect(thread.body.turns[1]).toMatchObject({ success: true, status: 'finished', thread_id: first.body.thread_id })
      for (const caller of [stranger, 'admin' as Caller]) {
        const hidden = await server().call(`/ask_thread?thread_id=${first.body.thread_id}`, { as: caller })
        expect(hidden.status).toBe(404)
        expect(hidden.body.message).toBe(`No thread ${first.body.thread_id}`)
      }
      expect((await server().call('/ask_thread?thread_id=0', { as: owner })).status).toBe(400)
    })

    it("lists the caller's own threads, the most recently continued first, by their first question", async () => {
      const someone = await server().createUser('user')
      const older = await ask('How do I renew my passport?', someone)
      const newer = await ask('How do I renew my driving licence?', someone)
      await ask(FOLLOW_UP, someone, older.body.thread_id)
      const listed = await server().call('/ask_threads', { as: someone })
      expect(listed.status).toBe(200)
      expect(listed.body.threads).toEqual([
        { thread_id: older.body.thread_id, command: 'How do I renew my passport?', turns: 2, last_asked: expect.any(String) },
        { thread_id: newer.body.thread_id, command: 'How do I renew my driving licence?', turns: 1, last_asked: expect.any(String) },
      ])
      expect((await server().call('/ask_threads?limit=1', { as: someone })).body.threads).toHaveLength(1)
      // Older ones a page at a time.
      expect((await server().call('/ask_threads?limit=1&offset=1', { as: someone })).body.threads).toEqual([expect.objectContaining({ thread_id: newer.body.thread_id })])
      expect((await server().call('/ask_threads?offset=2', { as: someone })).body.threads).toEqual([])
      expect((await server().call('/ask_threads?offset=1000049', { as: someone })).body.threads).toEqual([])
      for (const bad of ['offset=-1', 'offset=one', 'offset=10000001', 'limit=51']) expect((await server().call(`/ask_threads?${bad}`, { as: someone })).status).toBe(400)
      const others = (await server().call('/ask_threads', { as: stranger })).body.threads as { thread_id: number }[]
      expect(others.map((thread) => thread.thread_id)).not.toContain(older.body.thread_id)
    })
  })

  describe('PUT /ask_qa_feedback with a reason', () => {
    it('keeps the reason with the feedback, shows both with the answer, and still takes feedback without one', async () => {
      const answer = await ask('How do I renew my passport?', owner)
      const given = await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: answer.body.log_id, feedback: 'dislike', reason: '  It missed the photo size.  ' }, as: owner })
      expect(given.status).toBe(200)
      expect(given.body.result).toMatchObject({ feedback: 'dislike', feedback_reason: 'It missed the photo size.' })
      expect((await server().call(`/answer?log_id=${answer.body.log_id}`, { as: owner })).body).toMatchObject({ feedback: 'dislike', feedback_reason: 'It missed the photo size.' })
      // SEED.md's call, without a reason: the feedback changes, the reason stays.
      const plain = await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: answer.body.log_id, feedback: 'like' }, as: owner })
      expect(plain.body.result).toMatchObject({ feedback: 'like', feedback_reason: 'It missed the photo size.' })
      const cleared = await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: answer.body.log_id, feedback: 'like', reason: '' }, as: owner })
      expect(cleared.body.result).toMatchObject({ feedback: 'like', feedback_reason: null })
      const tooLong = await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: answer.body.log_id, feedback: 'like', reason: 'x'.repeat(1001) }, as: owner })
      expect(tooLong.status).toBe(400)
    })
  })
})

/** Follow-ups asked of the built-in user guide, as a new user asks them on /ask. */
describe('follow-ups asked of the built-in guide', () => {
  let server: TestBackend
  let asker: Caller
  beforeAll(async () => {
    server = await startTestBackend('pglite', {}, { demoDirectory: fileURLToPath(new URL('../../demo/articles/', import.meta.url)) })
    asker = await server.createUser('user')
  })
  afterAll(async () => server?.stop())

  /** The follow-up's answer, asked in the thread of `question`. */
  const followUp = async (question: string, next: string) => {
    const first = await server.call('/ask_qa', { method: 'POST', body: { command: question }, as: asker })
    const answer = await server.call('/ask_qa', { method: 'POST', body: { command: next, thread_id: first.body.thread_id }, as: asker })
    expect(answer.body).toMatchObject({ success: true, found: true, thread_id: first.body.thread_id })
    return { title: answer.body.source_list[0].metadata.title as string, result: answer.body.result as string }
  }

  it('reads "it" as what the earlier question named, not "afterwards" as what is asked about', async () => {
    const edit = await followUp('How do I add an article?', 'And how do I edit it afterwards?')
    expect(edit.title).toBe('How to edit or delete an article')
    expect(edit.result).toMatch(/^1\. Find the article in the Articles table\./)
    expect(edit.result).toContain('Choose to edit it.')
    expect(edit.result).not.toContain('single sign-on')
    const remove = await followUp('How do I create a template?', 'Can I delete it later?')
    expect(remove.title).toBe('How to use the government agent and templates')
    expect(remove.result).toMatch(/^delete a template that is no longer needed\./)
    const disable = await followUp('How do I add a user?', 'And how do I disable them later on?')
    expect(disable.title).toBe('Users, organisations, roles and signing in')
  })

  it('reads the earlier subject into a follow-up without its own', async () => {
    const publish = await followUp('What is a draft?', 'How do I publish them?')
    expect(publish.title).toBe('How to review and publish drafts')
    expect(publish.result).toMatch(/^When the drafts look right:/)
    const remove = await followUp('How do I create a template?', 'Can I delete it?')
    expect(remove.title).toBe('How to use the government agent and templates')
    expect(remove.result).toMatch(/^delete a template that is no longer needed\./)
    const who = await followUp('What is a draft?', 'Who can publish?')
    expect(who.title).toBe('How to review and publish drafts')
    expect(who.result).toContain('Reviewing and publishing drafts requires the editor or admin role.')
  })

  it('keeps to the new subject a follow-up names itself', async () => {
    const apiKey = await followUp('How do I add an article?', 'And what is an API key?')
    expect(apiKey.title).toBe('Organisations, groups and API keys')
    expect(apiKey.result).toContain('API key')
    expect(apiKey.result).not.toMatch(/\barticle\b/i)
  })
})

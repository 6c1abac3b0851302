import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresAvailable, publishArticles, startTestBackend, type StorageKind, type TestBackend } from '../../testing/test-backend'
import { knowledgeLanguage, setKnowledgeLanguage } from '../../retrieval/text'

/**
 * A knowledge base in French (KNOWLEDGE_LANGUAGE=fr, ADR 269): its words become terms by French rules, so that a
 * question finds the article that says it in another form of its words and its question word ("Comment") weighs
 * nothing; a database indexed by English rules is re-indexed when the language changes, and back.
 */
const ARTICLES = [
  { title: 'Thèmes', content: 'Chaque organisation choisit son thème dans les Réglages. Le thème change les couleurs et le logo.' },
  { title: 'Réglages de l’organisation', content: 'Changez le logo dans les Réglages de l’organisation : choisissez Logo, puis une image.' },
  { title: 'La page d’accueil', content: 'Le logo apparaît en haut de chaque page, à côté du nom de l’organisation.' },
  { title: 'Abonnements', content: 'Nous renouvelons chaque abonnement le premier jour du mois. Une facture est envoyée par courriel.' },
]

const QUESTION = 'Comment changer le logo ?'

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`a knowledge base in French on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend | undefined
    beforeAll(async () => {
      if (!isAvailable) return
      server = await startTestBackend(kind)
      await publishArticles(server, ARTICLES)
      await server.call('/admin/bot_setting', { method: 'PUT', body: { score_threshold: 0, num_sources_k: 3, semantic_firewall: false } })
    })
    afterAll(async () => {
      await server?.stop()
      setKnowledgeLanguage('en')
    })
    const ask = async (command: string) => (await server!.call('/ask_qa', { method: 'POST', body: { command } })).body
    const recordedFormat = async () =>
      (await server!.backend.db.query<{ value: { language?: string } }>(`SELECT value FROM app_state WHERE key = 'index_format'`))[0]?.value

    it.skipIf(!isAvailable)('answers by French rules once KNOWLEDGE_LANGUAGE is fr, re-indexing, and by English ones again without it', async () => {
      // English rules: "comment" and "changer" are words no article has, so the question is not answered.
      expect(await ask(QUESTION)).toMatchObject({ success: true, found: false })

      server = await server!.restart({ KNOWLEDGE_LANGUAGE: 'fr' })
      expect(knowledgeLanguage()).toBe('fr')
      expect(await recordedFormat()).toMatchObject({ language: 'fr' })
      const french = await ask(QUESTION)
      expect(french).toMatchObject({ success: true, found: true })
      expect(french.source_list[0].metadata.title).toBe('Réglages de l’organisation')
      expect(french.result).toContain('Changez le logo dans les Réglages de l’organisation')

      // Published in French: indexed by the rules of the process that publishes.
      await publishArticles(server!, [{ title: 'Factures', content: 'Téléchargez vos factures depuis la page Abonnements.' }])
      const invoices = await ask('Où télécharger une facture ?')
      expect(invoices.source_list[0].metadata.title).toBe('Factures')

      server = await server!.restart({ KNOWLEDGE_LANGUAGE: 'en' })
      expect(await recordedFormat()).toMatchObject({ language: 'en' })
      expect(await ask(QUESTION)).toMatchObject({ success: true, found: false })
    })
  })
}

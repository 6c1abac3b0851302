import { beforeAll, describe, expect, it } from 'vitest'
import { forEachStorage, publishArticles } from '../../testing/test-backend'

/** A knowledge base in other languages and scripts: asked in its language, it answers from the article that says it. */
const ARTICLES = [
  {
    title: 'Публикация черновиков',
    content: 'Черновик публикует редактор. Откройте черновик и выберите «Опубликовать». Опубликованная статья сразу используется в ответах.',
  },
  { title: 'Пароль', content: 'Пароль меняют на странице «Ваша учётная запись». Введите текущий пароль и новый пароль дважды.' },
  { title: '下書きの公開', content: '下書きは編集者が公開します。下書きを開いて「公開」を選びます。' },
  { title: '図書館カード', content: '図書館カードは住民なら無料です。一度に十冊まで借りられます。' },
  { title: 'Library cards', content: 'A library card is free for residents and lets you borrow ten books at a time.' },
]

forEachStorage('answers in other languages', ({ server }) => {
  beforeAll(async () => {
    await publishArticles(server(), ARTICLES)
    await server().call('/admin/bot_setting', { method: 'PUT', body: { score_threshold: 0, num_sources_k: 3, semantic_firewall: false } })
  })

  const ask = async (command: string) => (await server().call('/ask_qa', { method: 'POST', body: { command } })).body

  it('answers a question in Russian from the Russian article', async () => {
    const answer = await ask('Как изменить пароль?')
    expect(answer).toMatchObject({ success: true, found: true })
    expect(answer.source_list[0].metadata.title).toBe('Пароль')
    expect(answer.result).toContain('Пароль меняют на странице')
    // Another form of the words (публикует, черновик) in the article: stemmed alike.
    const drafts = await ask('Кто публикует черновики?')
    expect(drafts.source_list[0].metadata.title).toBe('Публикация черновиков')
    expect(drafts.result).toContain('Черновик публикует редактор')
  })

  it('answers a question in Japanese, written without spaces, from the Japanese article', async () => {
    const answer = await ask('図書館カードで何冊借りられますか？')
    expect(answer).toMatchObject({ success: true, found: true })
    expect(answer.source_list[0].metadata.title).toBe('図書館カード')
    expect(answer.result).toContain('一度に十冊まで借りられます。')
  })

  it('tells a question in a language no article is in that it found nothing', async () => {
    expect(await ask('Πώς αλλάζω τον κωδικό μου;')).toMatchObject({ success: true, found: false })
  })
})

import { describe, expect, it } from 'vitest'
import { Bm25Index, createIndexedChunk } from '../retrieval/bm25-index'
import { CitationList, type CitableChunk } from './citations'
import { ExtractiveComposer } from './extractive-composer'
import { readRequest } from './request-frame'

describe('readRequest', () => {
  it('finds the subject of a request for a summary', () => {
    expect(readRequest('Summarise what the knowledge base says about publishing drafts')).toEqual({ subject: 'publishing drafts', isSummary: true })
    expect(readRequest('summarize everything about the semantic firewall.')).toEqual({ subject: 'the semantic firewall', isSummary: true })
    expect(readRequest('Give me an overview of query logs?')).toEqual({ subject: 'query logs', isSummary: true })
    expect(readRequest('Please give a short summary of the articles on uploads')).toEqual({ subject: 'uploads', isSummary: true })
    expect(readRequest('Tell me about roles')).toEqual({ subject: 'roles', isSummary: true })
    expect(readRequest('What does the guide say about themes?')).toEqual({ subject: 'themes', isSummary: true })
    expect(readRequest('Brief me on user feedback')).toEqual({ subject: 'user feedback', isSummary: true })
    expect(readRequest('Please give me a briefing on the semantic firewall.')).toEqual({ subject: 'the semantic firewall', isSummary: true })
    expect(readRequest('Fill me in on templates')).toEqual({ subject: 'templates', isSummary: true })
    expect(readRequest('Overview of query logs')).toEqual({ subject: 'query logs', isSummary: true })
    expect(readRequest('What do you know about roles?')).toEqual({ subject: 'roles', isSummary: true })
    expect(readRequest('Summarise how publishing works')).toEqual({ subject: 'publishing', isSummary: true })
    expect(readRequest('Explain how the semantic firewall works')).toEqual({ subject: 'the semantic firewall', isSummary: false })
  })

  it('reads an instruction for its object, no summary', () => {
    expect(readRequest('Compare the steps for uploading files')).toEqual({ subject: 'the steps for uploading files', isSummary: false })
    expect(readRequest('Please explain the semantic firewall')).toEqual({ subject: 'the semantic firewall', isSummary: false })
    expect(readRequest('Show me how to add an article')).toEqual({ subject: 'how to add an article', isSummary: false })
    expect(readRequest('List')).toEqual({ subject: 'List', isSummary: false })
  })

  it('leaves a question, or a frame with nothing after it, as it is', () => {
    expect(readRequest('How do I publish drafts?')).toEqual({ subject: 'How do I publish drafts?', isSummary: false })
    expect(readRequest('What is a knowledge base?')).toEqual({ subject: 'What is a knowledge base?', isSummary: false })
    expect(readRequest('Summarise what the knowledge base says about it')).toEqual({ subject: 'Summarise what the knowledge base says about it', isSummary: false })
  })
})

describe('the extractive composer on a request for a summary', () => {
  const texts = [
    { title: 'Library cards', text: 'You can get a library card at any branch desk with a photo ID. Library cards are free for residents. A lost library card costs five dollars to replace.' },
    { title: 'Library guide', text: 'The library guide explains what the library offers. The guide summarises the opening hours.' },
  ]
  const chunks: CitableChunk[] = texts.map((item, index) => ({ chunkId: index + 1, articleId: index + 1, source: item.title, score: 1 - index / 10, ...item }))
  const index = new Bm25Index()
  chunks.forEach((chunk) => index.add(createIndexedChunk(chunk.chunkId, chunk.articleId, `${chunk.title}\n${chunk.text}`)))
  const composer = new ExtractiveComposer((term) => index.idf(term))
  const compose = async (question: string) => (await composer.composePart({ question, chunks, citations: new CitationList() }))?.text

  it('quotes the subject more broadly, not the framing words', async () => {
    expect(await compose('Summarise what the guide says about library cards')).toBe(
      'You can get a library card at any branch desk with a photo ID. [1] Library cards are free for residents. [1] A lost library card costs five dollars to replace. [1]',
    )
    // A question gets the one sentence that answers it.
    expect(await compose('Where do I get a library card?')).toBe('You can get a library card at any branch desk with a photo ID. [1]')
  })
})

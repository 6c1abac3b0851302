import { create, insertMultiple, search as searchOrama } from '@orama/orama'
import FlexSearch from 'flexsearch'
import lunr from 'lunr'
import MiniSearch from 'minisearch'
import winkBm25 from 'wink-bm25-text-search'
import winkUtils from 'wink-nlp-utils'
import type { CorpusDocument } from './beir-dataset'

/** A search engine under test: indexes the corpus once, then answers queries with ranked document ids. */
export interface SearchEngine {
  name: string
  /** How it is configured, for the results table. */
  configuration: string
  index(corpus: readonly CorpusDocument[]): Promise<void>
  search(query: string, limit: number): Promise<string[]>
  close?(): Promise<void>
}

/** MiniSearch as its README sets it up: both fields indexed, OR queries, the title boosted ×2 as in its example. */
export function createMiniSearchEngine(): SearchEngine {
  const engine = new MiniSearch<CorpusDocument>({ fields: ['title', 'text'], idField: 'id', searchOptions: { boost: { title: 2 } } })
  return {
    name: 'MiniSearch',
    configuration: 'minisearch 7: fields title+text, searchOptions.boost title 2 (README example), default tokenizer, no stemming',
    async index(corpus) {
      engine.addAll(corpus as CorpusDocument[])
    },
    async search(query, limit) {
      return engine
        .search(query)
        .slice(0, limit)
        .map((result) => String(result.id))
    },
  }
}

/** lunr with its default English pipeline (stopwords, Porter stemmer); queries built with the query API so claims are never parsed as lunr syntax. */
export function createLunrEngine(): SearchEngine {
  let engine: lunr.Index | undefined
  return {
    name: 'lunr',
    configuration: 'lunr 2: ref id, fields title+text, default pipeline (trimmer, stopwords, Porter stemmer), terms via idx.query()',
    async index(corpus) {
      engine = lunr(function build() {
        this.ref('id')
        this.field('title')
        this.field('text')
        for (const document of corpus) this.add(document)
      })
    },
    async search(query, limit) {
      if (!engine) throw new Error('lunr: index first')
      const terms = lunr.tokenizer(query)
      return engine
        .query((builder) => {
          // Clauses go through the search pipeline, as the query-string parser would send them.
          for (const token of terms) builder.term(token, { presence: lunr.Query.presence.OPTIONAL })
        })
        .slice(0, limit)
        .map((result) => result.ref)
    },
  }
}

/** Orama with its BM25 defaults and its bundled English stemmer switched on. */
export function createOramaEngine(): SearchEngine {
  const engine = create({ schema: { id: 'string', title: 'string', text: 'string' } as const, components: { tokenizer: { stemming: true } } })
  return {
    name: 'Orama',
    configuration: 'orama 3: schema title+text, tokenizer stemming on (English), default BM25 relevance and threshold',
    async index(corpus) {
      await insertMultiple(engine, corpus.map((document) => ({ id: document.id, title: document.title, text: document.text })))
    },
    async search(query, limit) {
      const results = await searchOrama(engine, { term: query, properties: ['title', 'text'], limit })
      return results.hits.map((hit) => String(hit.document.id))
    },
  }
}

/** FlexSearch's Document index with the LatinBalance encoder; `suggest` so long queries are not an AND of every word. */
export function createFlexSearchEngine(): SearchEngine {
  const engine = new FlexSearch.Document<{ id: string; title: string; text: string }>({
    document: { id: 'id', index: ['title', 'text'] },
    tokenize: 'strict',
    encoder: FlexSearch.Charset.LatinBalance,
  })
  return {
    name: 'FlexSearch',
    configuration: 'flexsearch 0.8: Document index title+text, tokenize strict, Charset.LatinBalance, search { suggest, merge }',
    async index(corpus) {
      for (const document of corpus) engine.add(document)
    },
    async search(query, limit) {
      const results = engine.search(query, { suggest: true, merge: true, limit }) as unknown as Array<{ id: string | number }>
      return results.map((result) => String(result.id))
    },
  }
}

/** wink-bm25-text-search with the wink-nlp-utils preparation pipeline from its documentation. */
export function createWinkEngine(): SearchEngine {
  const engine = winkBm25()
  const nlp = winkUtils
  const prepare = [
    nlp.string.lowerCase,
    nlp.string.removeExtraSpaces,
    nlp.string.tokenize0,
    nlp.tokens.propagateNegations,
    nlp.tokens.removeWords,
    nlp.tokens.stem,
  ]
  return {
    name: 'wink-bm25-text-search',
    configuration: 'wink-bm25-text-search 3: fldWeights title 1, body 2 (README), prep lowerCase, tokenize0, propagateNegations, removeWords, stem (Porter2); BM25 defaults k1 1.2, b 0.75',
    async index(corpus) {
      engine.defineConfig({ fldWeights: { title: 1, body: 2 } })
      engine.definePrepTasks(prepare)
      for (const document of corpus) engine.addDoc({ title: document.title, body: document.text }, document.id)
      engine.consolidate()
    },
    async search(query, limit) {
      return engine.search(query, limit).map(([id]) => String(id))
    },
  }
}

export function createPeerEngines(): SearchEngine[] {
  return [createMiniSearchEngine(), createLunrEngine(), createOramaEngine(), createFlexSearchEngine(), createWinkEngine()]
}

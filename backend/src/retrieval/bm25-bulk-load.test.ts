import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Bm25Index, Bm25IndexBuilder, countChunkTerms, createIndexedChunk, knowledgeBaseBm25Parameters, type CompactIndex, type IndexedChunk } from './bm25-index';
import { chunkArticle } from './chunker';
import { parseQuery, type Query } from './query';

const SCIFACT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/datasets/scifact');
const hasDataset = existsSync(path.join(SCIFACT, 'corpus.jsonl'));

interface Document {
  title: string;
  text: string;
}

function readJsonLines<T>(file: string, limit: number): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, limit)
    .map((line) => JSON.parse(line) as T);
}

/** Chunks of documents as the knowledge base indexes articles: article ids from `firstArticle`, chunk ids from `firstChunk`. */
function chunksOf(documents: Document[], firstArticle: number, firstChunk: number): IndexedChunk[] {
  const chunks: IndexedChunk[] = [];
  documents.forEach((document, position) => {
    for (const chunk of chunkArticle(document.text)) {
      const counted = countChunkTerms(chunk.text, document.title);
      if (counted.length > 0) chunks.push({ chunkId: firstChunk + chunks.length, articleId: firstArticle + position, ...counted });
    }
  });
  return chunks;
}

function bulkLoaded(chunks: IndexedChunk[]): Bm25Index {
  const builder = new Bm25IndexBuilder();
  for (const chunk of chunks) builder.add(chunk);
  return Bm25Index.fromCompact(builder.finish(), knowledgeBaseBm25Parameters);
}

describe.skipIf(!hasDataset)('a bulk-loaded Bm25Index on SciFact', () => {
  const documents = hasDataset ? readJsonLines<Document>(path.join(SCIFACT, 'corpus.jsonl'), 1400) : [];
  const claims = hasDataset ? readJsonLines<{ text: string }>(path.join(SCIFACT, 'queries.jsonl'), 120).map((query) => query.text) : [];
  // Claims (expanded by RM3 on an index this large) and the same claims asked as questions (proximity, no expansion).
  const queries: Query[] = [...claims.map((claim) => parseQuery(claim)), ...claims.slice(0, 60).map((claim) => parseQuery(`What shows that ${claim.replace(/\.$/, '')}?`))];

  function expectSameSearches(expected: Bm25Index, actual: Bm25Index): void {
    expect(actual.size).toBe(expected.size);
    expect(actual.averageLength).toBe(expected.averageLength);
    for (const query of queries) {
      for (const term of query.terms.keys()) expect(actual.idf(term)).toBe(expected.idf(term));
      expect(actual.search(query, 10)).toEqual(expected.search(query, 10));
    }
  }

  it('answers every query exactly like the index built one chunk at a time', () => {
    const chunks = chunksOf(documents.slice(0, 1200), 1, 1);
    expect(chunks.length).toBeGreaterThan(1000);
    const incremental = new Bm25Index(knowledgeBaseBm25Parameters);
    for (const chunk of chunks) incremental.add(chunk);
    const bulk = bulkLoaded(chunks);
    expect(bulk.search(queries[0] as Query, 10).length).toBe(10);
    expectSameSearches(incremental, bulk);
  });

  it('still does after chunks are replaced, removed and added, and after a round trip through its compact form', () => {
    const chunks = chunksOf(documents.slice(0, 1200), 1, 1);
    const incremental = new Bm25Index(knowledgeBaseBm25Parameters);
    for (const chunk of chunks) incremental.add(chunk);
    const bulk = bulkLoaded(chunks);
    // Searched once before the changes, so merged posting arrays and cached impacts must follow them.
    expectSameSearches(incremental, bulk);

    const newcomers = chunksOf(documents.slice(1200, 1400), 5000, 100_000);
    const changes: ({ add: IndexedChunk } | { remove: number })[] = [];
    for (let position = 0; position < chunks.length; position += 7) changes.push({ remove: (chunks[position] as IndexedChunk).chunkId });
    // Replacements: other chunks' terms under existing ids (some reuse slots freed just above).
    for (let position = 3; position < chunks.length; position += 11) {
      const source = newcomers[position % newcomers.length] as IndexedChunk;
      changes.push({ add: { ...source, chunkId: (chunks[position] as IndexedChunk).chunkId } });
    }
    for (const chunk of newcomers.slice(0, 150)) changes.push({ add: chunk });
    changes.push({ remove: 999_999 });
    for (const change of changes) {
      for (const index of [incremental, bulk]) {
        if ('add' in change) index.add(change.add);
        else index.remove(change.remove);
      }
    }
    expect(bulk.has((chunks[0] as IndexedChunk).chunkId)).toBe(false);
    expectSameSearches(incremental, bulk);
    expect(new Set(bulk.chunkIdList())).toEqual(new Set(incremental.chunkIdList()));

    const reloaded = Bm25Index.fromCompact(bulk.toCompact(), knowledgeBaseBm25Parameters);
    expectSameSearches(incremental, reloaded);
    const fromIncremental = Bm25Index.fromCompact(incremental.toCompact(), knowledgeBaseBm25Parameters);
    expectSameSearches(incremental, fromIncremental);
  });

  it('tells a search apart from one on other chunks (the comparison can fail)', () => {
    const chunks = chunksOf(documents.slice(0, 1200), 1, 1);
    const all = bulkLoaded(chunks);
    const fewer = bulkLoaded(chunks.slice(1));
    expect(queries.some((query) => JSON.stringify(all.search(query, 10)) !== JSON.stringify(fewer.search(query, 10)))).toBe(true);
  });
});

describe('Bm25Index.fromCompact', () => {
  const chunk = (chunkId: number, terms: Record<string, number>): IndexedChunk => ({ chunkId, articleId: chunkId, terms, length: 3 });

  it('refuses compact arrays that contradict themselves', () => {
    const builder = new Bm25IndexBuilder();
    builder.add(chunk(1, { apple: 1 }));
    builder.add(chunk(1, { pear: 1 }));
    expect(() => Bm25Index.fromCompact(builder.finish())).toThrow(/appears twice/);
    const other = new Bm25IndexBuilder();
    other.add(chunk(2, { apple: 1, plum: 2 }));
    const compact = other.finish();
    expect(() => Bm25Index.fromCompact({ ...compact, termIds: Int32Array.of(0, 7) })).toThrow(/out of range/);
    expect(() => Bm25Index.fromCompact({ ...compact, termOffsets: Int32Array.of(0, 1) })).toThrow(/offsets/);
  });

  it('skips the terms add() skips: pairs go to proximity, zero and non-finite frequencies are left out', () => {
    const builder = new Bm25IndexBuilder();
    builder.add(chunk(1, { apple: 1, pear: 0, plum: Number.NaN }));
    const index = Bm25Index.fromCompact(builder.finish());
    expect(index.documentFrequency('apple')).toBe(1);
    expect(index.documentFrequency('pear')).toBe(0);
    expect(index.documentFrequency('plum')).toBe(0);
  });
});

describe('Bm25Index.compactSlices', () => {
  const texts = ['kiln bisque firing cone', 'glaze slurry sieve hydrometer', 'wedging clay air pockets', 'wheel centring clay walls', 'trimming feet loop tool'];
  /** A bulk-loaded index of 40 chunks, 6 of them replaced one at a time since. */
  function changedIndex(): Bm25Index {
    const builder = new Bm25IndexBuilder();
    for (let id = 1; id <= 40; id += 1) builder.add(createIndexedChunk(id, Math.ceil(id / 2), `${texts[id % texts.length]} chunk${id}`, 'Pottery'));
    const index = Bm25Index.fromCompact(builder.finish(), knowledgeBaseBm25Parameters);
    for (let id = 3; id <= 40; id += 7) index.add(createIndexedChunk(id, Math.ceil(id / 2), `${texts[(id + 1) % texts.length]} again${id}`, 'Pottery'));
    return index;
  }

  function drain(slices: Generator<void, CompactIndex, void>): { compact: CompactIndex; slices: number } {
    for (let count = 1; ; count += 1) {
      const step = slices.next();
      if (step.done) return { compact: step.value, slices: count };
    }
  }

  it('holds the index as it was when the copy began, though chunks are added, replaced and removed between slices', () => {
    const index = changedIndex();
    const expected = index.toCompact();
    const slices = index.compactSlices(10);
    expect(slices.next().done).toBe(false);
    // A bulk-loaded chunk and a replaced one removed (chunk 1's own term with it), one replaced, new ones in the freed slots.
    index.remove(1);
    index.remove(10);
    index.add(createIndexedChunk(17, 9, 'raku smoke reduction', 'Pottery'));
    index.add(createIndexedChunk(41, 21, 'pit firing sawdust seaweed', 'Pottery'));
    index.add(createIndexedChunk(42, 21, 'burnished chunk1 terra sigillata', 'Pottery'));
    const { compact, slices: count } = drain(slices);
    expect(count).toBeGreaterThan(10);
    expect(compact).toEqual(expected);
    // The copy loads into an index that searches like the one copied.
    const before = changedIndex();
    expect(Bm25Index.fromCompact(compact, knowledgeBaseBm25Parameters).search(['chunk1'], 5)).toEqual(before.search(['chunk1'], 5));
    // A copy begun now holds the changes.
    expect(index.toCompact().chunkIds).not.toEqual(expected.chunkIds);
  });

  it('refuses to go on once a later copy has renumbered the vocabulary', () => {
    const index = changedIndex();
    const first = index.compactSlices(10);
    first.next();
    index.toCompact();
    expect(() => drain(first)).toThrow(/renumbered/);
  });
});

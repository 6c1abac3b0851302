import { describe, expect, it } from 'vitest';
import { Bm25Index, defaultQueryExpansion, type IndexedChunk } from './bm25-index';
import { parseQuery } from './query';
import { tokenize } from './text';

/** A deterministic corpus of `size` chunks over a Zipf-like vocabulary, so postings range from rare to common. */
function randomCorpus(size: number, seed = 42): IndexedChunk[] {
  let state = seed;
  const random = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: size }, (_, position) => {
    const terms: Record<string, number> = {};
    const count = 5 + Math.floor(random() * 30);
    for (let index = 0; index < count; index += 1) {
      const term = `t${Math.floor(1 / (0.002 + random() * 0.998))}`;
      terms[term] = (terms[term] ?? 0) + 1;
    }
    const length = Object.values(terms).reduce((sum, frequency) => sum + frequency, 0);
    return { chunkId: position + 1, articleId: Math.floor(position / 3) + 1, terms, length };
  });
}

function build(chunks: IndexedChunk[], expansion = true): Bm25Index {
  const index = new Bm25Index(undefined, expansion ? defaultQueryExpansion : false);
  for (const chunk of chunks) index.add(chunk);
  return index;
}

describe('Bm25Index top-k pruning', () => {
  it('returns exactly the first k of the full ranking, with and without expansion', () => {
    const chunks = randomCorpus(3000);
    for (const expansion of [false, true]) {
      const index = build(chunks, expansion);
      for (const query of [['t1', 't2', 't37'], ['t3', 't250', 't8', 't1'], ['t499', 't2'], ['t5']]) {
        const full = index.search(query, chunks.length);
        for (const limit of [1, 10, 40]) expect(index.search(query, limit)).toEqual(full.slice(0, limit));
      }
    }
  });

  it('ranks the same after chunks are removed and added again', () => {
    const chunks = randomCorpus(1500);
    const index = build(chunks);
    for (const chunk of chunks.slice(0, 400)) index.remove(chunk.chunkId);
    for (const chunk of chunks.slice(0, 400)) index.add(chunk);
    const fresh = build([...chunks.slice(400), ...chunks.slice(0, 400)]);
    expect(index.search(['t1', 't9', 't120'], 20)).toEqual(fresh.search(['t1', 't9', 't120'], 20));
  });
});

describe('Bm25Index query expansion (RM3)', () => {
  const filler = (from: number, count: number): IndexedChunk[] =>
    Array.from({ length: count }, (_, offset) => ({ chunkId: from + offset, articleId: from + offset, terms: { filler: 1, [`noise${offset % 97}`]: 2 }, length: 3 }));
  const topical: IndexedChunk[] = [
    { chunkId: 1, articleId: 1, terms: { helminth: 2, albendazol: 3, treat: 1 }, length: 6 },
    { chunkId: 2, articleId: 2, terms: { helminth: 1, albendazol: 2, soil: 1 }, length: 4 },
    { chunkId: 3, articleId: 3, terms: { albendazol: 3, dose: 2 }, length: 5 },
  ];

  it('finds a chunk that shares no word with the question through the best chunks\' words', () => {
    const index = build([...topical, ...filler(100, 1200)]);
    const hits = index.search(['helminth'], 5);
    expect(hits.map((hit) => hit.chunkId)).toEqual([1, 2, 3]);
    // Only question terms are reported as matched.
    expect(hits[2]?.matchedTerms).toEqual([]);
    expect(build([...topical, ...filler(100, 1200)], false).search(['helminth'], 5).map((hit) => hit.chunkId)).toEqual([1, 2]);
  });

  it('does not expand a question: it names what it asks for in the words of the passage that has it', () => {
    const index = build([...topical, ...filler(100, 1200)]);
    const question = index.search(parseQuery('Which treatment works on helminths?'), 5);
    expect(question.map((hit) => hit.chunkId)).toEqual([1, 2]);
    expect(question).toEqual(build([...topical, ...filler(100, 1200)], false).search(parseQuery('Which treatment works on helminths?'), 5));
    // The same words as a statement are expanded.
    expect(index.search(parseQuery('Treatment works on helminths.'), 5).map((hit) => hit.chunkId)).toEqual([1, 2, 3]);
    // Unless the options expand questions too.
    const expandingQuestions = new Bm25Index(undefined, { ...defaultQueryExpansion, questionOriginalWeight: 0.7 });
    for (const chunk of [...topical, ...filler(100, 1200)]) expandingQuestions.add(chunk);
    expect(expandingQuestions.search(parseQuery('Which treatment works on helminths?'), 5).map((hit) => hit.chunkId)).toEqual([1, 2, 3]);
  });

  it('stays plain BM25 below the minimum index size', () => {
    const small = [...topical, ...filler(100, 200)];
    expect(build(small).search(['helminth'], 5)).toEqual(build(small, false).search(['helminth'], 5));
  });

  it('refuses an original query weight outside (0, 1]', () => {
    expect(() => new Bm25Index(undefined, { ...defaultQueryExpansion, originalQueryWeight: 0 })).toThrow(RangeError);
    expect(() => new Bm25Index(undefined, { ...defaultQueryExpansion, questionOriginalWeight: 1.5 })).toThrow(RangeError);
  });
});

describe('tokenize and Greek letters', () => {
  it('spells Greek letters out so both spellings meet', () => {
    expect(tokenize('TNF-α')).toEqual(tokenize('TNF-alpha'));
    expect(tokenize('NF-κB and IFN-γ')).toEqual(tokenize('NF-kappaB and IFN-gamma'));
  });
});

import { describe, expect, it } from 'vitest';
import { Bm25Index, countChunkTerms, createIndexedChunk, defaultBm25Parameters, knowledgeBaseBm25Parameters, TITLE_WEIGHT, type Bm25Parameters, type IndexedChunk } from './bm25-index';
import { pairTerm, parseQuery } from './query';
import { tokenize } from './text';

const chunk = (chunkId: number, terms: Record<string, number>, articleId = chunkId * 10): IndexedChunk => ({
  chunkId,
  articleId,
  terms,
  length: Object.values(terms).reduce((sum, frequency) => sum + frequency, 0),
});

/** A 3-document corpus: N = 3, average length 3. */
function smallCorpus(): Bm25Index {
  const index = new Bm25Index();
  index.add(chunk(1, { apple: 2, banana: 1 }));
  index.add(chunk(2, { apple: 1, cherry: 1 }));
  index.add(chunk(3, { cherry: 3, date: 1 }));
  return index;
}

function indexTexts(texts: string[]): Bm25Index {
  const index = new Bm25Index();
  texts.forEach((text, position) => index.add(createIndexedChunk(position + 1, 100 + position, text)));
  return index;
}

describe('Bm25Index', () => {
  it('uses k1 = 0.9 and b = 0.4 by default', () => {
    expect(defaultBm25Parameters).toEqual({ k1: 0.9, b: 0.4 });
  });

  it('reports size, average length and document frequency', () => {
    const index = smallCorpus();
    expect(index.size).toBe(3);
    expect(index.averageLength).toBe(3);
    expect(index.documentFrequency('apple')).toBe(2);
    expect(index.documentFrequency('date')).toBe(1);
    expect(index.documentFrequency('missing')).toBe(0);
    expect(index.has(2)).toBe(true);
    expect(index.has(4)).toBe(false);
  });

  it('computes the non-negative Lucene idf', () => {
    const index = smallCorpus();
    // ln(1 + (3 - 1 + 0.5) / (1 + 0.5)) and ln(1 + (3 - 0 + 0.5) / 0.5)
    expect(index.idf('date')).toBeCloseTo(0.9808292530117263, 12);
    expect(index.idf('missing')).toBeCloseTo(2.0794415416798357, 12);
    const everywhere = new Bm25Index();
    for (let id = 1; id <= 5; id += 1) everywhere.add(chunk(id, { common: 1 }));
    expect(everywhere.idf('common')).toBeGreaterThan(0);
  });

  it('matches hand-computed BM25 scores on a 3-document corpus', () => {
    // idf(apple) = idf(cherry) = ln(1.6); norm = 0.9 * (0.6 + 0.4 * |d| / 3)
    // d1: ln1.6 * 1.9 * 2 / (2 + 0.9)
    // d2: 2 * ln1.6 * 1.9 * 1 / (1 + 0.78)
    // d3: ln1.6 * 1.9 * 3 / (3 + 1.02)
    const results = smallCorpus().search(['apple', 'cherry'], 10);
    expect(results.map((result) => result.chunkId)).toEqual([2, 3, 1]);
    const byId = new Map(results.map((result) => [result.chunkId, result.score]));
    expect(Math.abs((byId.get(1) ?? 0) - 0.615866824528895)).toBeLessThan(1e-9);
    expect(Math.abs((byId.get(2) ?? 0) - 1.0033785343448287)).toBeLessThan(1e-9);
    expect(Math.abs((byId.get(3) ?? 0) - 0.6664230563932072)).toBeLessThan(1e-9);
  });

  it('reports matched terms and article ids', () => {
    const results = smallCorpus().search(['cherry', 'apple', 'kiwi'], 10);
    expect(results[0]).toMatchObject({ chunkId: 2, articleId: 20, matchedTerms: ['cherry', 'apple'] });
    expect(results.find((result) => result.chunkId === 3)?.matchedTerms).toEqual(['cherry']);
  });

  it('counts a repeated query term once', () => {
    const index = smallCorpus();
    expect(index.search(['apple', 'apple', 'apple'], 10)).toEqual(index.search(['apple'], 10));
  });

  it('ranks the document with the rarer matching term first', () => {
    const index = indexTexts(['apple banana', 'apple cherry', 'apple banana']);
    const results = index.search(tokenize('apple cherry banana'), 3);
    // banana occurs in two documents, cherry in one.
    expect(results[0]?.chunkId).toBe(2);
  });

  it('prefers the shorter document at equal term frequency', () => {
    const index = indexTexts(['refund policy', 'refund policy details shipping returns warehouse', 'unrelated words here']);
    expect(index.search(['refund'], 2).map((result) => result.chunkId)).toEqual([1, 2]);
  });

  it('breaks score ties by ascending chunkId', () => {
    const index = new Bm25Index();
    for (const id of [9, 3, 7, 1]) index.add(chunk(id, { same: 1, filler: 1 }));
    expect(index.search(['same'], 10).map((result) => result.chunkId)).toEqual([1, 3, 7, 9]);
  });

  it('returns only the top results, identical to a full ranking, for large candidate sets', () => {
    const index = new Bm25Index();
    for (let id = 1; id <= 2000; id += 1) index.add(chunk(id, { common: 1 + (id % 7), [`rare${id % 13}`]: 1, filler: id % 11 }));
    const full = index.search(['common', 'rare3'], 5000);
    expect(full).toHaveLength(2000);
    for (let position = 1; position < full.length; position += 1) {
      const previous = full[position - 1]!;
      const current = full[position]!;
      expect(previous.score > current.score || (previous.score === current.score && previous.chunkId < current.chunkId)).toBe(true);
    }
    expect(index.search(['common', 'rare3'], 10)).toEqual(full.slice(0, 10));
  });

  it('returns nothing for unknown terms, an empty query, a zero limit or an empty index', () => {
    const index = smallCorpus();
    expect(index.search(['kiwi'], 10)).toEqual([]);
    expect(index.search([], 10)).toEqual([]);
    expect(index.search(['apple'], 0)).toEqual([]);
    expect(new Bm25Index().search(['apple'], 10)).toEqual([]);
  });

  it('keeps statistics exact under add, remove and replace', () => {
    const texts = [
      'How to add an article to the knowledge base',
      'Billing and invoices are sent monthly',
      'Reset your password from the settings page',
      'Articles can be archived or deleted',
      'Invite teammates to your workspace',
      'Export invoices as PDF or CSV files',
    ];
    const incremental = new Bm25Index();
    texts.forEach((text, position) => incremental.add(createIndexedChunk(position + 1, 1, text)));
    incremental.add(createIndexedChunk(42, 1, 'a temporary chunk about invoices and articles'));
    incremental.remove(2);
    incremental.remove(42);
    incremental.remove(999); // unknown ids are ignored
    incremental.add(createIndexedChunk(4, 2, 'Articles can be archived, restored or deleted by editors'));
    incremental.add(createIndexedChunk(2, 1, texts[1]!));

    const fresh = new Bm25Index();
    const finalTexts = new Map<number, [number, string]>([
      [1, [1, texts[0]!]],
      [2, [1, texts[1]!]],
      [3, [1, texts[2]!]],
      [4, [2, 'Articles can be archived, restored or deleted by editors']],
      [5, [1, texts[4]!]],
      [6, [1, texts[5]!]],
    ]);
    for (const [id, [articleId, text]] of [...finalTexts].reverse()) fresh.add(createIndexedChunk(id, articleId, text));

    expect(incremental.size).toBe(fresh.size);
    expect(incremental.averageLength).toBe(fresh.averageLength);
    for (const query of ['adding articles', 'invoices', 'archived articles restored', 'reset password settings', 'temporary']) {
      const terms = tokenize(query);
      for (const term of terms) expect(incremental.documentFrequency(term)).toBe(fresh.documentFrequency(term));
      expect(incremental.search(terms, 10)).toEqual(fresh.search(terms, 10));
    }
    expect(incremental.search(tokenize('temporary'), 10)).toEqual([]);
  });

  it('scores like a fresh index after chunks are added between searches', () => {
    const texts = ['Invoices are sent monthly', 'Reset a password', 'Export invoices as CSV', 'Invite teammates'];
    const incremental = new Bm25Index();
    texts.slice(0, 2).forEach((text, position) => incremental.add(createIndexedChunk(position + 1, 1, text)));
    // Searching caches per-term impacts for the current N and average length; adding must not leave them stale.
    expect(incremental.search(tokenize('invoices'), 10)).toHaveLength(1);
    texts.slice(2).forEach((text, position) => incremental.add(createIndexedChunk(position + 3, 1, text)));
    const fresh = new Bm25Index();
    texts.forEach((text, position) => fresh.add(createIndexedChunk(position + 1, 1, text)));
    expect(incremental.search(tokenize('invoices csv'), 10)).toEqual(fresh.search(tokenize('invoices csv'), 10));
    incremental.remove(3);
    fresh.remove(3);
    expect(incremental.search(tokenize('invoices'), 10)).toEqual(fresh.search(tokenize('invoices'), 10));
  });

  it('ranks the same whether its posting arrays were prepared at once or on demand', () => {
    const texts = ['Invoices are sent monthly', 'Reset a password', 'Export invoices as CSV', 'Invite teammates to invoices'];
    const prepared = indexTexts(texts);
    prepared.prepare();
    for (const query of ['invoices', 'export invoices csv', 'password teammates']) {
      expect(prepared.search(tokenize(query), 10)).toEqual(indexTexts(texts).search(tokenize(query), 10));
    }
  });

  it('empties completely when every chunk is removed', () => {
    const index = smallCorpus();
    for (const id of [1, 2, 3]) index.remove(id);
    expect(index.size).toBe(0);
    expect(index.averageLength).toBe(0);
    expect(index.documentFrequency('apple')).toBe(0);
    expect(index.search(['apple'], 5)).toEqual([]);
  });

  it('matches "Adding articles" with "add an article" through stopwords and stemming', () => {
    const index = indexTexts(['Billing questions', 'How to add an article', 'Team settings']);
    expect(index.search(tokenize('Adding articles'), 3).map((result) => result.chunkId)).toEqual([2]);
  });

  it('matches "café" with "cafe" through accent folding', () => {
    const index = indexTexts(['The cafe opens at eight', 'The bakery opens at nine']);
    expect(index.search(tokenize('Café'), 3).map((result) => result.chunkId)).toEqual([1]);
  });

  it('honours custom parameters', () => {
    const noLengthNormalization = new Bm25Index({ k1: 1.2, b: 0 });
    noLengthNormalization.add(chunk(1, { term: 1 }));
    noLengthNormalization.add(chunk(2, { term: 1, other: 50 }));
    noLengthNormalization.add(chunk(3, { unrelated: 1 }));
    const [first, second] = noLengthNormalization.search(['term'], 2);
    expect(first?.score).toBe(second?.score);
    expect(() => new Bm25Index({ k1: -1, b: 0.5 })).toThrow(RangeError);
    expect(() => new Bm25Index({ k1: 1, b: 2 })).toThrow(RangeError);
  });
});

describe('countChunkTerms', () => {
  it('counts each title term TITLE_WEIGHT times, in the frequencies and in the length', () => {
    expect(TITLE_WEIGHT).toBe(2);
    const counted = countChunkTerms('Invoices are sent monthly by email', 'Billing invoices');
    expect(counted.terms).toEqual({
      bill: 2, invoic: 3, send: 1, monthli: 1, email: 1,
      'invoic send': 1, 'send monthli': 1, 'monthli email': 1,
    });
    expect(counted.length).toBe(4 + 2 * 2);
  });

  it('counts the text alone without a title, and honours another weight', () => {
    expect(countChunkTerms('Invoices are sent monthly')).toEqual({ terms: { invoic: 1, send: 1, monthli: 1, 'invoic send': 1, 'send monthli': 1 }, length: 3 });
    expect(countChunkTerms('Invoices', 'Billing', 1)).toEqual({ terms: { bill: 1, invoic: 1 }, length: 2 });
  });

  it('keeps stems that are names of object members as plain counts', () => {
    expect(countChunkTerms('constructor constructor', 'constructor').terms).toEqual({ constructor: 4, 'constructor constructor': 1 });
  });

  it('ranks a passage of the article whose title names the subject above a passing mention', () => {
    const rank = (titleWeight: number) => {
      const index = new Bm25Index();
      index.add({ chunkId: 1, articleId: 1, ...countChunkTerms('Money goes back to your card within five working days of the request.', 'Refunds', titleWeight) });
      index.add({ chunkId: 2, articleId: 2, ...countChunkTerms('Shipping is free; a refund needs a receipt.', 'Shipping', titleWeight) });
      return index.search(tokenize('refund'), 2).map((result) => result.chunkId);
    };
    expect(rank(TITLE_WEIGHT)).toEqual([1, 2]);
    // Counted once, the title would lose to the shorter passage.
    expect(rank(1)).toEqual([2, 1]);
  });
});

describe('proximity', () => {
  const proximity = { ...defaultBm25Parameters, proximityWeight: 0.5 };

  it('counts the adjacent word pairs of the text, not of the title, outside the length', () => {
    const counted = countChunkTerms('The Carolina Panthers beat the Arizona Cardinals; the Panthers won.', 'Carolina Panthers');
    expect(counted.terms[pairTerm('carolina', 'panther')]).toBe(1);
    expect(counted.terms[pairTerm('panther', 'beat')]).toBe(1);
    expect(counted.terms[pairTerm('cardin', 'panther')]).toBe(1);
    expect(counted.length).toBe(tokenize('The Carolina Panthers beat the Arizona Cardinals; the Panthers won.').length + 2 * 2);
  });

  it('ranks the passage that has the question\'s words side by side above one that has them apart', () => {
    const texts = [
      'The panthers of Carolina moved their training camp to the coast.',
      'Carolina Panthers quarterback Cam Newton won the award.',
      'In Carolina the quarterback of the panthers team was injured.',
    ];
    const build = (parameters: Bm25Parameters) => {
      const index = new Bm25Index(parameters);
      texts.forEach((text, position) => index.add(createIndexedChunk(position + 1, position + 1, text)));
      return index;
    };
    const question = parseQuery('Who is the quarterback for the Carolina Panthers?');
    expect(build(defaultBm25Parameters).search(question, 3)[0]?.chunkId).toBe(3);
    expect(build(proximity).search(question, 3).map((hit) => hit.chunkId)).toEqual([2, 3, 1]);
    // Without proximity the scores are plain BM25, pairs or not.
    expect(build(defaultBm25Parameters).search(question, 3)).toEqual(build(defaultBm25Parameters).search(tokenize('quarterback carolina panthers'), 3));
  });

  it('uses the question weight for questions and the other for the rest', () => {
    const index = new Bm25Index({ ...defaultBm25Parameters, proximityWeight: 0, questionProximityWeight: 0.5 });
    index.add(createIndexedChunk(1, 1, 'Super Bowl tickets went on sale.'));
    index.add(createIndexedChunk(2, 2, 'The bowl of soup was super hot.'));
    const [questionTop, questionSecond] = index.search(parseQuery('When did Super Bowl tickets go on sale?'), 2);
    expect(questionTop!.score).toBeGreaterThan(index.search(parseQuery('Super Bowl tickets on sale'), 1)[0]!.score);
    expect(questionSecond!.chunkId).toBe(2);
    expect(knowledgeBaseBm25Parameters.questionProximityWeight).toBeGreaterThan(0);
  });

  it('returns exactly the first k of the full ranking with pairs, and after removals', () => {
    let state = 7;
    const random = () => {
      state = (state * 1664525 + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const words = Array.from({ length: 60 }, (_, position) => `w${position}`);
    const texts = Array.from({ length: 1500 }, () => Array.from({ length: 6 + Math.floor(random() * 20) }, () => words[Math.floor(random() * random() * words.length)]).join(' '));
    const index = new Bm25Index({ ...defaultBm25Parameters, proximityWeight: 0.7 }, false);
    texts.forEach((text, position) => index.add(createIndexedChunk(position + 1, position + 1, text)));
    for (const chunkId of [5, 50, 500]) index.remove(chunkId);
    for (const query of ['w0 w1 w2', 'w3 w1 w40 w2 w7', 'w55 w2', 'w1 w0 w1 w0']) {
      const full = index.search(tokenize(query), texts.length);
      for (const limit of [1, 5, 10, 40]) expect(index.search(tokenize(query), limit)).toEqual(full.slice(0, limit));
    }
  });

  it('refuses a negative proximity weight', () => {
    expect(() => new Bm25Index({ ...defaultBm25Parameters, proximityWeight: -1 })).toThrow(RangeError);
    expect(() => new Bm25Index({ ...defaultBm25Parameters, questionProximityWeight: Number.NaN })).toThrow(RangeError);
  });
});

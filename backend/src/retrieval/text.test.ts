import { describe, expect, it } from 'vitest';
import { englishStopwords } from './stopwords';
import { normalize, termFrequencies, tokenize } from './text';

describe('normalize', () => {
  it('lowercases and strips combining accents', () => {
    expect(normalize('Café Crème BRÛLÉE')).toBe('cafe creme brulee');
  });

  it('applies compatibility decomposition to ligatures and full-width characters', () => {
    expect(normalize('ﬁle ＡＢＣ')).toBe('file abc');
  });
});

describe('tokenize', () => {
  it('removes stopwords and stems so inflected forms meet', () => {
    expect(tokenize('Adding articles')).toEqual(tokenize('add an article'));
    expect(tokenize('Adding articles')).toEqual(['ad', 'articl']);
  });

  it('folds accents so "café" and "cafe" give the same term', () => {
    expect(tokenize('Café')).toEqual(tokenize('cafe'));
  });

  it('keeps numbers and splits on punctuation', () => {
    expect(tokenize('Error 404: page-not-found in v2.5')).toEqual(['error', '404', 'page', 'found', 'v2', '5']);
  });

  it('drops every Lucene English stopword', () => {
    const lucene = 'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with';
    for (const word of lucene.split(' ')) expect(englishStopwords.has(word)).toBe(true);
    expect(tokenize(lucene)).toEqual([]);
  });

  it('drops tokens longer than 40 characters', () => {
    const long = 'x'.repeat(41);
    expect(tokenize(`${long} billing ${'7'.repeat(40)}`)).toEqual(['bill', '7'.repeat(40)]);
  });

  it('gives a word ending in a doubled consonant the same stem as its -ed/-ing forms', () => {
    expect(tokenize('add added adding adds')).toEqual(['ad', 'ad', 'ad', 'ad']);
    expect(tokenize('staff staffing')).toEqual(['staf', 'staf']);
    expect(tokenize('access accessing')).toEqual(['access', 'access']);
  });

  it('preserves order and keeps duplicates', () => {
    expect(tokenize('invoice payment invoice')).toEqual(['invoic', 'payment', 'invoic']);
  });

  it('follows a token mixing letters and digits with its letter and digit runs, unstemmed', () => {
    expect(tokenize('CD40 ligands')).toEqual(['cd40', 'cd', '40', 'ligand']);
    expect(tokenize('APOE4 carriers')).toEqual(['apoe4', 'apoe', 'carrier']);
    // Runs of one character, and stopwords, are left out.
    expect(tokenize('IL6 in v2 and 5a')).toEqual(['il6', 'il', 'v2', '5a']);
  });

  it('lets "IL6" and "IL-6" share terms', () => {
    const joined = new Set(tokenize('IL6'));
    expect(tokenize('IL-6').some((term) => joined.has(term))).toBe(true);
    expect(tokenize('CD 40').every((term) => new Set(tokenize('CD40')).has(term))).toBe(true);
  });

  it('returns no tokens for text without letters or digits', () => {
    expect(tokenize('  ¿¡ — !!! ')).toEqual([]);
  });
});

describe('termFrequencies', () => {
  it('counts each term', () => {
    const frequencies = termFrequencies(['invoic', 'payment', 'invoic']);
    expect([...frequencies]).toEqual([
      ['invoic', 2],
      ['payment', 1],
    ]);
  });

  it('gives an empty map for no tokens', () => {
    expect(termFrequencies([]).size).toBe(0);
  });
});

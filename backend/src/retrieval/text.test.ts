import { afterEach, describe, expect, it } from 'vitest';
import { englishStopwords } from './stopwords';
import { KNOWLEDGE_LANGUAGES } from './scripts';
import { countWords, knowledgeLanguage, normalize, setKnowledgeLanguage, termFrequencies, tokenize } from './text';

describe('normalize', () => {
  it('lowercases and strips combining accents', () => {
    expect(normalize('Café Crème BRÛLÉE')).toBe('cafe creme brulee');
  });

  it('applies compatibility decomposition to ligatures and full-width characters', () => {
    expect(normalize('ﬁle ＡＢＣ')).toBe('file abc');
  });
});

describe('tokenize', () => {
  afterEach(() => setKnowledgeLanguage('en'));

  it('removes stopwords and stems so inflected forms meet', () => {
    expect(tokenize('Adding articles')).toEqual(tokenize('add an article'));
    expect(tokenize('Adding articles')).toEqual(['ad', 'articl']);
  });

  it('gives an irregular verb\'s past forms the term of its base form, which stemming cannot', () => {
    expect(tokenize('Who wrote it? It was written')).toEqual(tokenize('who writes it? it was writing'));
    expect(tokenize('found built taught')).toEqual(tokenize('finding builds teaching'));
    // A regular verb's past is stemmed as before; "founded" is not "found" (of find).
    expect(tokenize('founded')).toEqual(['found']);
    expect(tokenize('found')).toEqual(tokenize('find'));
    // Only English has the table: a French "made" is no English past.
    setKnowledgeLanguage('fr');
    expect(tokenize('wrote')).not.toEqual(tokenize('write'));
  });

  it('gives a British spelling the term of its American one, and a short form that of its word, which stemming cannot', () => {
    expect(tokenize('organisation colours favourites centre licence catalogue grey')).toEqual(
      tokenize('organization colors favorites center license catalog gray'),
    );
    expect(tokenize('customised analyse realisation optimising')).toEqual(tokenize('customized analyze realization optimizing'));
    // A short form is its word: "admin" meets "administrators".
    expect(tokenize('admin admins info config')).toEqual(tokenize('administrator administrators information configuration'));
    // Words in -ise that are never -ize, and short ones, stay as they were.
    expect(tokenize('advise promise exercise otherwise raise noise')).toEqual(['advis', 'promis', 'exercis', 'otherwis', 'rais', 'nois']);
    setKnowledgeLanguage('fr');
    expect(tokenize('organisation')).not.toEqual(tokenize('organization'));
  });

  it('folds accents so "café" and "cafe" give the same term', () => {
    expect(tokenize('Café')).toEqual(tokenize('cafe'));
  });

  it('keeps numbers and splits on punctuation', () => {
    expect(tokenize('Error 404: page-not-found in v2.5')).toEqual(['error', '404', 'page', 'find', 'v2', '5']);
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

  it('keeps words of every script, with what their marks spell', () => {
    expect(tokenize('مرحبا بالعالم')).toEqual(['مرحب', 'عالم']);
    // Devanagari's vowel signs are marks: they spell the word and stay ("हिंदी", not "हद").
    expect(tokenize('हिंदी किताब')).toEqual(['हिंदी', 'किताब']);
    // Korean syllables stay syllables, as the question types them.
    expect(tokenize('서울은 수도')).toEqual(['서울은', '수도']);
    // Latin letters with no decomposition are letters, not separators ("Straße" was "stra", "e").
    expect(tokenize('Straße Søren')).toEqual(['straße', 'søren']);
    // Accents fold in Cyrillic as in Latin: "ё" and "е" meet.
    expect(tokenize('ёлка')).toEqual(tokenize('елка'));
  });

  it("drops the stopwords of a word's script and stems it as its language, where one dominates the script", () => {
    // "как" (how) is a stopword; the forms of "черновик" (draft) and "публиковать" (publish) meet.
    expect(tokenize('Как опубликовать черновик?')).toEqual(['опубликова', 'черновик']);
    expect(tokenize('черновики публикуются')).toEqual(['черновик', 'публик']);
    expect(tokenize('публиковать')[0]).toMatch(/^публик/);
    // Greek: the articles "η" and "της" go; Latin-script words keep the English rules.
    expect(tokenize('Η Αθήνα είναι η πρωτεύουσα της Ελλάδας')).toEqual(['αθηνα', 'πρωτευουσα', 'ελλαδας']);
    // Only function and question words go: a book, a city and Moscow are words (a Russian list once dropped them).
    expect(tokenize('Почему книга, город и Москва?')).toEqual(['книг', 'город', 'москв']);
    expect(tokenize('Πότε; 什么? 図書館で何冊借りられますか')).toEqual(['図書館', '冊', '借り']);
  });

  it('splits a language written without spaces into its words', () => {
    // The particles は and の, and です, are stopwords.
    expect(tokenize('東京は日本の首都です。')).toEqual(['東京', '日本', '首都']);
    expect(tokenize('ภาษาไทย')).toEqual(['ภาษา', 'ไทย']);
    // A Japanese word is found inside the sentence that has it.
    expect(tokenize('日本の首都は東京です')).toContain('首都');
  });

  it('spells the Greek letters of a text that is not Greek, and leaves Greek text alone', () => {
    expect(tokenize('TNF-α NF-κB β2 αβ T cells')).toEqual(['tnf', 'alpha', 'nf', 'kappab', 'beta2', 'beta', 'alphabeta', 'cell']);
    expect(tokenize('Το α και το ω')).toEqual(['α', 'ω']);
  });

  it('reads a negative contraction as its verb and "not", both stopwords', () => {
    expect(tokenize("Why doesn't it know?")).toEqual(['know']);
    expect(tokenize('I can’t sign in')).toEqual(['sign']);
    // "won't" is "will not"; "won" alone is a word (of win).
    expect(tokenize("It won't publish; he won")).toEqual(['publish', 'win']);
    expect(tokenize("didn't haven't shouldn't")).toEqual([]);
  });

  it('returns no tokens for text without letters or digits', () => {
    expect(tokenize('  ¿¡ — !!! ')).toEqual([]);
  });
});

describe('countWords', () => {
  it('counts the words of a text, in a script written without spaces too', () => {
    expect(countWords('You can borrow ten books — at a time.')).toBe(8);
    // 一度, に, 十, 冊, まで, … by the platform's dictionary: several words, not one.
    expect(countWords('一度に十冊まで借りられます。')).toBeGreaterThanOrEqual(5);
    expect(countWords('東京')).toBe(1);
  });
});

describe('the knowledge base\'s language (setKnowledgeLanguage)', () => {
  afterEach(() => setKnowledgeLanguage('en'));

  it('reads Latin words by English rules by default: French inflections stay apart and its function words are terms', () => {
    expect(knowledgeLanguage()).toBe('en');
    expect(tokenize('changer changez')).toEqual(['changer', 'changez']);
    expect(tokenize('le mot de passe')).toEqual(['le', 'mot', 'de', 'pass']);
  });

  it('stems French words with their accents, then folds them, and drops French function and question words', () => {
    setKnowledgeLanguage('fr');
    expect(tokenize('changer changez change changée')).toEqual(['chang', 'chang', 'chang', 'chang']);
    // "mot de passe" keeps its words: only function words are dropped, not every common word.
    expect(tokenize('Comment changer mon mot de passe ?')).toEqual(['chang', 'mot', 'pass']);
    // Typed with or without accents, a word meets itself.
    expect(tokenize('école')).toEqual(tokenize('ecole'));
    expect(tokenize('Où est-ce ?')).toEqual([]);
  });

  it('keeps the rules of other scripts and the letter and digit runs whatever the language', () => {
    setKnowledgeLanguage('de');
    expect(tokenize('Wie ändere ich mein Passwort?')).toEqual(['and', 'passwort']);
    expect(tokenize('Passwörter ändern')).toEqual(['passwort', 'and']);
    expect(tokenize('IL6 Черновики 東京は日本の首都')).toEqual(['il6', 'il', ...tokenize('Черновики'), '東京', '日本', '首都']);
  });

  it('goes back to English rules, and refuses a language it has no rules for', () => {
    setKnowledgeLanguage('fr');
    setKnowledgeLanguage('en');
    expect(tokenize('changer changez')).toEqual(['changer', 'changez']);
    expect(() => setKnowledgeLanguage('xx')).toThrow(/no rules for the language "xx"/);
    expect(knowledgeLanguage()).toBe('en');
    expect(KNOWLEDGE_LANGUAGES).toEqual(expect.arrayContaining(['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'sv', 'pl']));
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

import { describe, expect, it } from 'vitest';
import { analyzeSentences, chunkArticle, markdownAsProse, splitSentences, tablesAsItems } from './chunker';
import { countWords } from './text';

const wordCount = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
/** A capitalized sentence of `count` words, e.g. sentence('Alpha', 3) === 'Alpha alpha alpha.' */
const sentence = (word: string, count: number) =>
  [word, ...Array.from({ length: count - 1 }, () => word.toLowerCase())].join(' ') + '.';

describe('tables', () => {
  const TABLE = ['The permit fees are:', '', '| Permit | Fee per year | Note |', '|---|:---:|---|', '| Resident parking permit | 40 euros | |', '| Visitor permit | 15 euros | a day \\| a week |', '', 'Pay online.'].join('\n');

  it('reads each row as an item that says its cells with their headings, the header and separator left out', () => {
    expect(tablesAsItems(TABLE).split('\n')).toEqual([
      'The permit fees are:',
      '',
      '- Resident parking permit — Fee per year: 40 euros.',
      '- Visitor permit — Fee per year: 15 euros; Note: a day | a week.',
      '',
      'Pay online.',
    ]);
    expect(analyzeSentences(TABLE).map(({ text, kind }) => `${kind}: ${text}`)).toEqual([
      'text: The permit fees are:',
      'item: Resident parking permit — Fee per year: 40 euros.',
      'item: Visitor permit — Fee per year: 15 euros; Note: a day | a week.',
      'text: Pay online.',
    ]);
    expect(markdownAsProse(TABLE)).not.toContain('| Permit |');
  });

  it('leaves pipes that make no table as they are', () => {
    expect(tablesAsItems('Type a | b to pipe.\n| just one line |')).toBe('Type a | b to pipe.\n| just one line |');
  });
});

describe('splitSentences', () => {
  it('splits on periods, question marks and exclamation marks', () => {
    expect(splitSentences('It works. Does it? Yes! Done')).toEqual(['It works.', 'Does it?', 'Yes!', 'Done']);
  });

  it('goes on after a quoted question or exclamation when the sentence does', () => {
    expect(splitSentences('"What about an organisation?" asks it again. Select "Go!" to start. He asked "Why?" Nobody knew.')).toEqual([
      '"What about an organisation?" asks it again.',
      'Select "Go!" to start.',
      'He asked "Why?"',
      'Nobody knew.',
    ]);
  });

  it('splits Chinese and Japanese at their full stops, which no space follows, and Hindi at the danda', () => {
    expect(splitSentences('図書館カードは無料です。一度に十冊まで借りられます！本当？はい。')).toEqual(['図書館カードは無料です。', '一度に十冊まで借りられます！', '本当？', 'はい。']);
    // A quotation the sentence goes on after is part of it.
    expect(splitSentences('「はい。」と言った。次です。')).toEqual(['「はい。」と言った。', '次です。']);
    expect(splitSentences('यह पहला वाक्य है। यह दूसरा है।')).toEqual(['यह पहला वाक्य है।', 'यह दूसरा है।']);
    expect(splitSentences('هل هذا سؤال؟ نعم.')).toEqual(['هل هذا سؤال؟', 'نعم.']);
  });

  it('does not split on common abbreviations or decimals', () => {
    expect(splitSentences('Dr. Smith and Mr. Jones use tools, e.g. editors, i.e. apps, etc. for 3.5 hours. Next.')).toEqual([
      'Dr. Smith and Mr. Jones use tools, e.g. editors, i.e. apps, etc. for 3.5 hours.',
      'Next.',
    ]);
  });

  it('treats each list item as its own sentence and strips the bullets', () => {
    expect(splitSentences('Steps:\n- Open settings\n- Click save\n1. First\n2) Second')).toEqual([
      'Steps:',
      'Open settings',
      'Click save',
      'First',
      'Second',
    ]);
  });

  it('ends a sentence at a newline', () => {
    expect(splitSentences('First line\nSecond line')).toEqual(['First line', 'Second line']);
  });

  it('joins a hard-wrapped line that continues in lowercase', () => {
    expect(splitSentences('This sentence is\nwrapped in the source.')).toEqual(['This sentence is wrapped in the source.']);
  });

  it('strips heading marks, bold and code markers', () => {
    expect(splitSentences('## Billing **basics**\n\nRun `npm test` to **check** it.')).toEqual([
      'Billing basics',
      'Run npm test to check it.',
    ]);
  });

  it('keeps the code spans of a sentence in the form an answer quotes', () => {
    expect(analyzeSentences('Use `##` for **subheadings**.\n\nRun `npm test.')).toEqual([
      { text: 'Use ## for subheadings.', quoted: 'Use `##` for subheadings.', kind: 'text', block: 0 },
      // A code mark without its pair in the sentence would open code that never ends.
      { text: 'Run npm test.', kind: 'text', block: 1 },
    ]);
  });

  it('strips the heading marks of a heading inside a quote', () => {
    expect(splitSentences('> ## Note\n> Keep the receipt.')).toEqual(['Note', 'Keep the receipt.']);
  });

  it('returns nothing for empty or punctuation-only text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('---\n\n***')).toEqual([]);
  });
});

describe('chunkArticle', () => {
  it('returns no chunks for empty content', () => {
    expect(chunkArticle('')).toEqual([]);
    expect(chunkArticle(' \n\n \t')).toEqual([]);
  });

  it('keeps a short article in one chunk numbered from 0', () => {
    expect(chunkArticle('Hello world.\n\nSecond paragraph.')).toEqual([{ ordinal: 0, text: 'Hello world.\n\nSecond paragraph.' }]);
  });

  it('breaks between paragraphs when the next one does not fit', () => {
    const first = `${sentence('Alpha', 6)} ${sentence('Beta', 6)}`;
    const second = `${sentence('Gamma', 6)} ${sentence('Delta', 6)}`;
    const chunks = chunkArticle(`${first}\n\n${second}`, { maxWords: 20 });
    expect(chunks.map((chunk) => chunk.text)).toEqual([first, second]);
  });

  it('breaks a long paragraph at sentence boundaries', () => {
    const sentences = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon'].map((word) => sentence(word, 8));
    const chunks = chunkArticle(sentences.join(' '), { maxWords: 20 });
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      `${sentences[0]} ${sentences[1]}`,
      `${sentences[2]} ${sentences[3]}`,
      `${sentences[4]}`,
    ]);
  });

  it('never exceeds maxWords, even for a single overlong sentence', () => {
    const text = `${sentence('Long', 95)}\n\n${sentence('Short', 5)}`;
    const chunks = chunkArticle(text, { maxWords: 30 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(wordCount(chunk.text)).toBeLessThanOrEqual(30);
      expect(chunk.text.trim()).not.toBe('');
    }
    expect(chunks.map((chunk) => chunk.text).join(' ').split(/\s+/)).toEqual(text.split(/\s+/));
  });

  it('starts a new chunk at a heading and keeps the heading with the content that follows', () => {
    const chunks = chunkArticle('Intro text.\n\n# Billing\n\nInvoices are monthly.\n\n## Refunds\nRefunds take 5 days.');
    expect(chunks).toEqual([
      { ordinal: 0, text: 'Intro text.' },
      { ordinal: 1, text: '# Billing\n\nInvoices are monthly.' },
      { ordinal: 2, text: '## Refunds\n\nRefunds take 5 days.' },
    ]);
  });

  it('keeps consecutive headings together at the head of the next chunk', () => {
    const chunks = chunkArticle('# Guide\n## Setup\nInstall it.');
    expect(chunks).toEqual([{ ordinal: 0, text: '# Guide\n\n## Setup\n\nInstall it.' }]);
  });

  it('fills the chunk that starts with a heading before splitting a long section', () => {
    const sentences = ['Alpha', 'Beta', 'Gamma'].map((word) => sentence(word, 8));
    const chunks = chunkArticle(`## Section\n\n${sentences.join(' ')}`, { maxWords: 20 });
    expect(chunks.map((chunk) => chunk.text)).toEqual([`## Section\n\n${sentences[0]} ${sentences[1]}`, sentences[2]]);
  });

  it('carries the requested number of overlap sentences into the next chunk', () => {
    const sentences = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon'].map((word) => sentence(word, 5));
    const chunks = chunkArticle(sentences.join(' '), { maxWords: 15, overlapSentences: 1 });
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      sentences.slice(0, 3).join(' '),
      sentences.slice(2, 5).join(' '),
    ]);
  });

  it('does not carry overlap across a heading', () => {
    const chunks = chunkArticle(`${sentence('Alpha', 5)}\n\n# Next\n\n${sentence('Beta', 5)}`, { maxWords: 50, overlapSentences: 2 });
    expect(chunks.map((chunk) => chunk.text)).toEqual([sentence('Alpha', 5), `# Next\n\n${sentence('Beta', 5)}`]);
  });

  it('keeps list formatting inside a chunk', () => {
    const chunks = chunkArticle('To reset:\n- Open settings\n- Click reset');
    expect(chunks).toEqual([{ ordinal: 0, text: 'To reset:\n- Open settings\n- Click reset' }]);
  });

  it('uses 180 words as the default budget', () => {
    const sentences = Array.from({ length: 40 }, (_, index) => sentence(`Word${index}`, 10));
    const chunks = chunkArticle(sentences.join(' '));
    expect(chunks.map((chunk) => wordCount(chunk.text))).toEqual([180, 180, 40]);
  });

  it('cuts a sentence written without spaces that is longer than the budget between its words', () => {
    // One Japanese "sentence" of 250 words and no full stop: it was one chunk of 250 words, over the budget.
    const run = '図書館は本を貸します、'.repeat(50);
    const chunks = chunkArticle(run, { maxWords: 100 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(countWords(chunk.text)).toBeLessThanOrEqual(100);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(run);
    // Cut between words, never inside one.
    const boundaries = new Set([...new Intl.Segmenter('ja', { granularity: 'word' }).segment(run)].map((part) => part.index));
    let offset = 0;
    for (const chunk of chunks) {
      expect(boundaries.has(offset)).toBe(true);
      offset += chunk.text.length;
    }
  });
});

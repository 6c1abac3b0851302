import { describe, expect, it } from 'vitest';
import { Bm25Index, countChunkTerms, createIndexedChunk } from './bm25-index';
import { splitSentences } from './chunker';
import { composeExtractiveAnswer, cutRunOnSentence, definitionFinder, joinAnswerPieces, labelPatterns, layOutAnswer, namedLabel, rankAnswerSentences, type AnswerSource, type ExtractiveAnswerOptions } from './extractive-answer';

const sources: AnswerSource[] = [
  {
    articleId: 11,
    title: 'Passwords',
    text: '# Resetting your password\n\nOpen **Settings** and choose Security. Click `Reset password` to receive a reset link by email. The link expires after 24 hours.',
  },
  {
    articleId: 12,
    title: 'Billing',
    text: 'Invoices are issued on the first day of each month. You can download every invoice as a PDF from the Billing page.',
  },
  {
    articleId: 13,
    title: 'Team',
    text: 'Invite teammates from the Members page.\n\n- Admins can remove members.\n- Editors can publish articles.',
  },
];

/** Idf over the sources, as the caller would pass the index's idf. */
function idfOf(texts: AnswerSource[]): (term: string) => number {
  const index = new Bm25Index();
  texts.forEach((source, position) => index.add(createIndexedChunk(position, source.articleId, source.text)));
  return (term) => index.idf(term);
}

const weightOf = idfOf(sources);

/** Articles of a knowledge base about other things, so that words have realistic weights. */
function otherArticles(firstArticleId: number): AnswerSource[] {
  return ['Opening hours', 'Wifi', 'Printing', 'Study rooms', 'Events', 'Donations', 'Parking', 'Accessibility'].map((title, position) => ({
    articleId: firstArticleId + position,
    title,
    text: `${title} are explained at the front desk of each branch.`,
  }));
}

function expectVerbatim(answer: ReturnType<typeof composeExtractiveAnswer>, from: AnswerSource[]) {
  expect(answer).not.toBeNull();
  for (const sentence of answer!.sentences) {
    expect(splitSentences(from[sentence.sourceIndex]!.text)).toContain(sentence.text);
  }
}

describe('a question that asks for a quantity or a time', () => {
  const sources: AnswerSource[] = [
    {
      articleId: 1,
      title: 'Asking questions',
      text: 'Some answers take longer to prepare. Wait for it rather than sending the question again. Each question is logged with its answer, and the length of an answer depends on its sources.',
      score: 2,
    },
  ];
  // As in a knowledge base about asking questions: "question" is in most passages, "length" in few.
  const weightOf = (term: string) => (term === 'question' ? 0.8 : 5);

  it('gets the not-found answer from sentences that give none and say little of it', () => {
    // Only "question" is said: how long a question may be is not.
    expect(composeExtractiveAnswer('How long can a question be at most?', sources, weightOf)).toBeNull();
  });

  it('is answered by a sentence that gives none when it says most of the question', () => {
    const answer = composeExtractiveAnswer('When should I wait rather than sending the question again?', sources, weightOf);
    expect(answer?.text).toContain('Wait for it rather than sending the question again.');
  });
});

describe('answers from a table', () => {
  const text = ['## Fees', '', 'The permit fees are:', '', '| Permit | Fee per year |', '|---|---|', '| Resident parking permit | 40 euros |', '| Visitor permit | 15 euros |', '', 'Pay online or at the town hall.'].join('\n');
  const sources: AnswerSource[] = [{ articleId: 1, title: 'Parking permits', text, score: 3 }];

  it('quotes the row that answers, with its column heading, never the header row or pipes', () => {
    expect(composeExtractiveAnswer('How much does a visitor permit cost?', sources, () => 1)?.text).toBe('Visitor permit — Fee per year: 15 euros. [1]');
    const fees = composeExtractiveAnswer('What are the permit fees?', sources, () => 1)?.text ?? '';
    expect(fees).toContain('Resident parking permit — Fee per year: 40 euros.');
    expect(fees).toContain('Visitor permit — Fee per year: 15 euros.');
    expect(fees).not.toContain('|');
  });
});

describe('composeExtractiveAnswer', () => {
  it('cites the source that answers the question', () => {
    const answer = composeExtractiveAnswer('How do I download an invoice PDF?', sources, weightOf);
    expect(answer).not.toBeNull();
    expect(answer!.citedSourceIndexes).toEqual([1]);
    expect(answer!.sentences[0]).toEqual({
      text: 'You can download every invoice as a PDF from the Billing page.',
      sourceIndex: 1,
    });
    expect(answer!.text).toContain('You can download every invoice as a PDF from the Billing page. [2]');
  });

  it('returns null for an unrelated question', () => {
    expect(composeExtractiveAnswer('What is the boiling point of mercury on Mars?', sources, weightOf)).toBeNull();
  });

  it('returns null when an unrelated question shares only a common word with the sources', () => {
    expect(composeExtractiveAnswer('How do I cook pasta on the page?', sources, weightOf)).toBeNull();
  });

  it('returns null for a question made only of stopwords or without sources', () => {
    expect(composeExtractiveAnswer('What is it?', sources, weightOf)).toBeNull();
    expect(composeExtractiveAnswer('How do I reset my password?', [], weightOf)).toBeNull();
  });

  it('never returns a sentence that is not in a source', () => {
    for (const question of ['reset password link email', 'invoice billing month', 'remove members publish articles', 'security settings expires']) {
      const answer = composeExtractiveAnswer(question, sources, weightOf, { maxSentences: 3 });
      expectVerbatim(answer, sources);
    }
  });

  it('strips Markdown from quoted sentences and never quotes headings', () => {
    const answer = composeExtractiveAnswer('How do I reset my password?', sources, weightOf);
    expect(answer).not.toBeNull();
    expect(answer!.text).not.toMatch(/[`*#]/);
    expect(answer!.sentences.map((sentence) => sentence.text)).not.toContain('Resetting your password');
    expect(answer!.sentences[0]?.text).toBe('Click Reset password to receive a reset link by email.');
  });

  it('prefers a second sentence that covers new question terms', () => {
    const text = [
      'Exports run every night.',
      'Exports include invoices.',
      'Exports include invoices and receipts.',
      'Exports are stored in the archive.',
    ].join(' ');
    const local = [{ articleId: 1, title: 'Exports', text }];
    const answer = composeExtractiveAnswer('exports invoices archive', local, idfOf(local), { maxSentences: 2 });
    expect(answer?.sentences.map((sentence) => sentence.text)).toEqual([
      'Exports include invoices.',
      'Exports are stored in the archive.',
    ]);
  });

  it('orders sentences by source then position and numbers citations from 1', () => {
    // Every sentence that adds question words, however it scores next to the best.
    const answer = composeExtractiveAnswer('reset link email invoices PDF teammates members', sources, weightOf, {
      maxSentences: 3,
      minCoverage: 0.1,
      maxScoreGap: Infinity,
    });
    expect(answer).not.toBeNull();
    const order = answer!.sentences.map((sentence) => sentence.sourceIndex);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(answer!.citedSourceIndexes).toEqual([...new Set(order)]);
    const expectedText = answer!.sentences.map((sentence) => `${sentence.text} [${sentence.sourceIndex + 1}]`).join(' ');
    expect(answer!.text).toBe(expectedText);
    expect(answer!.citedSourceIndexes.length).toBeGreaterThan(1);
  });

  it('respects maxSentences', () => {
    const answer = composeExtractiveAnswer('reset link email invoices PDF teammates members', sources, weightOf, {
      maxSentences: 1,
      minCoverage: 0.1,
    });
    expect(answer?.sentences).toHaveLength(1);
  });

  it('applies minCoverage to the best sentence', () => {
    const question = 'download invoice passport visa customs';
    expect(composeExtractiveAnswer(question, sources, weightOf)).toBeNull();
    expect(composeExtractiveAnswer(question, sources, weightOf, { minCoverage: 0.1, minEvidence: 0 })?.citedSourceIndexes).toEqual([1]);
    // The passage's coverage is checked when asked for, and the evidence of the best passage by default.
    expect(composeExtractiveAnswer(question, sources, weightOf, { minCoverage: 0.1, minEvidence: 0, minSourceCoverage: 0.5 })).toBeNull();
    expect(composeExtractiveAnswer(question, sources, weightOf, { minCoverage: 0.1 })).toBeNull();
  });

  it('prefers the earlier source when two sentences cover the question equally', () => {
    const twins: AnswerSource[] = [
      { articleId: 1, title: 'A', text: 'Backups run daily at midnight.' },
      { articleId: 2, title: 'B', text: 'Backups run daily at midnight.' },
    ];
    const answer = composeExtractiveAnswer('When do backups run?', twins, () => 1);
    expect(answer?.citedSourceIndexes).toEqual([0]);
    expect(answer?.sentences).toHaveLength(1);
  });

  it('finds answers inside list items', () => {
    const answer = composeExtractiveAnswer('Who can publish articles?', sources, weightOf);
    expect(answer?.sentences[0]).toEqual({ text: 'Editors can publish articles.', sourceIndex: 2 });
    expect(answer?.citedSourceIndexes).toEqual([2]);
  });
});

describe('composeExtractiveAnswer, short answers and not-found', () => {
  const library: AnswerSource[] = [
    {
      articleId: 21,
      title: 'Library cards',
      text:
        'You can get a library card at any branch desk with a photo ID. Library cards are free for residents. ' +
        'A lost library card costs five dollars to replace. The branch desk also lends laptops.',
    },
    { articleId: 22, title: 'Refunds', text: 'Our refund policy: items can be returned within 30 days for a full refund. Refunds are paid to the original card within five working days.' },
    { articleId: 23, title: 'History', text: 'The library opened its doors to readers with a ceremony attended by the mayor. The library opened in 1962 on Main Street.' },
    { articleId: 24, title: 'Newsletter', text: 'The newsletter is sent by email every month. Unsubscribe with the link at the bottom of any email.' },
    { articleId: 25, title: 'Parking', text: 'Parking permits for the staff car park are issued by the facilities office.' },
  ];
  const libraryWeights = idfOf(library);

  it('answers with the one sentence that answers, not with every sentence on the topic', () => {
    const answer = composeExtractiveAnswer('How do I get a library card?', library, libraryWeights);
    expect(answer?.sentences).toEqual([{ text: 'You can get a library card at any branch desk with a photo ID.', sourceIndex: 0 }]);
  });

  it('adds a second sentence only when it scores nearly as well, and keeps the answer within maxWords', () => {
    const nearlyAsGood = { maxScoreGap: Infinity };
    expect(composeExtractiveAnswer('How do I get a library card?', library, libraryWeights, nearlyAsGood)?.sentences).toHaveLength(2);
    expect(composeExtractiveAnswer('How do I get a library card?', library, libraryWeights, { ...nearlyAsGood, maxWords: 15 })?.sentences).toHaveLength(1);
    expect(composeExtractiveAnswer('How do I get a library card?', library, libraryWeights)?.sentences).toHaveLength(1);
  });

  it('adds a second sentence only for question words the first does not cover, when asked to', () => {
    // However close the other sentences score, none that only repeats the first's words joins it.
    const fresh = { maxScoreGap: Infinity, minFreshCoverage: 0.1 };
    expect(composeExtractiveAnswer('How do I get a library card?', library, libraryWeights, fresh)?.sentences).toHaveLength(1);
    const answer = composeExtractiveAnswer('How do I replace a lost library card, and does the desk lend laptops?', library, libraryWeights, fresh);
    expect(answer?.sentences.map((sentence) => sentence.text)).toEqual([
      'A lost library card costs five dollars to replace.',
      'The branch desk also lends laptops.',
    ]);
    // With the default margin a sentence that scores far below the best is left out, fresh words or not.
    expect(composeExtractiveAnswer('How do I replace a lost library card, and does the desk lend laptops?', library, libraryWeights)?.sentences).toHaveLength(1);
  });

  it('reads a sentence on from the one before it when a question asks a fact: "It was opened in 1932." answers when the bridge opened', () => {
    const city: AnswerSource[] = [
      {
        articleId: 41,
        title: 'Landmarks of the city',
        text:
          'The Harbour Bridge carries trains and cars across the bay. It was opened in 1932 after eight years of work. ' +
          'Several smaller bridges were opened on the river in 1950.',
      },
      ...otherArticles(42),
    ];
    const answerOf = (question: string) => composeExtractiveAnswer(question, city, idfOf(city))?.sentences.map((sentence) => sentence.text);
    // Without the sentence before, "Several smaller bridges were opened" would say more of the question than it.
    expect(answerOf('When was the Harbour Bridge opened?')).toContain('It was opened in 1932 after eight years of work.');
  });

  it('leaves out a further sentence that says again what the answer says', () => {
    const guide: AnswerSource[] = [
      { articleId: 31, title: 'Deleting articles', text: 'Deleting an article does not delete any query logs.' },
      { articleId: 32, title: 'Query logs', text: 'Deleting an article never deletes logs. Logs can be filtered by date.' },
    ];
    const question = 'What happens to the logs when I delete an article?';
    const texts = (options: ExtractiveAnswerOptions) => composeExtractiveAnswer(question, guide, idfOf(guide), options)?.sentences.map(({ text }) => text);
    expect(texts({})).toEqual(['Deleting an article never deletes logs.']);
    // Without the check the paraphrase joins it.
    expect(texts({ maxRedundancy: 1 })).toEqual(['Deleting an article does not delete any query logs.', 'Deleting an article never deletes logs.']);
  });

  it('never quotes a sentence that only points to another article', () => {
    const guide: AnswerSource[] = [
      { articleId: 41, title: 'Drafts', text: 'Drafts are not used in answers until they are published. See "How to review and publish drafts".' },
      { articleId: 42, title: 'How to review and publish drafts', text: 'Editors and administrators publish drafts from the Drafts view.' },
    ];
    const answer = composeExtractiveAnswer('Who can publish drafts?', guide, idfOf(guide), { maxScoreGap: Infinity, maxSentences: 3 });
    expect(answer?.sentences.map(({ text }) => text)).toEqual([
      'Drafts are not used in answers until they are published.',
      'Editors and administrators publish drafts from the Drafts view.',
    ]);
  });

  it('measures each passage\'s evidence against the most the question could score', () => {
    const ranked = rankAnswerSentences('How do I get a library card?', library, libraryWeights);
    expect(ranked?.evidence).toHaveLength(library.length);
    for (const evidence of ranked?.evidence ?? []) expect(evidence).toBeGreaterThanOrEqual(0);
    // The library card passage has every question word, in its title too, and "library card" side by side.
    expect(ranked?.evidence[0]).toBeGreaterThan(0.7);
    // The refunds passage shares only "card"; the newsletter passage nothing.
    expect(ranked?.evidence[1]).toBeLessThan(0.25);
    expect(ranked?.evidence[3]).toBe(0);
  });

  it('answers not-found from the evidence alone when a sentence covers a common word or two', () => {
    // "refund" and "policy" are in the refunds passage, but the rare words of the question are in no passage.
    expect(composeExtractiveAnswer('What is the refund policy for the swimming pool?', library, libraryWeights, { minCoverage: 0 })).toBeNull();
    expect(composeExtractiveAnswer('What is the refund policy for the swimming pool?', library, libraryWeights, { minCoverage: 0, minEvidence: 0 })).not.toBeNull();
  });

  it('answers a how-to question with the sentence of a list of facts, not the whole list', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 33,
        title: 'What the assistant is',
        text:
          '## Good to know\n\n- Only published articles are used to answer questions. Drafts wait until you publish them.\n' +
          '- There is no set limit on how many articles the knowledge base can hold.\n- The app works with JavaScript turned off.\n' +
          '- Every screen fits the width of a phone.',
      },
    ];
    const answer = composeExtractiveAnswer('How do I see which articles are used?', guide, idfOf(guide));
    expect(answer?.numbered).toBeFalsy();
    expect(answer?.text).toContain('Only published articles are used to answer questions.');
    expect(answer?.text).not.toContain('phone');
  });

  it('answers a how-to question with the whole list of steps a step of which answers it', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 31,
        title: 'How to add an article',
        text:
          'Articles are what the assistant answers from.\n\n## Add the article\n\n1. Open the Dashboard and select the Articles tab.\n' +
          '2. Open the Add article form.\n3. Enter a title.\n4. Submit the form.\n\nYour article is saved as a draft.',
      },
    ];
    const answer = composeExtractiveAnswer('How do I add an article?', guide, idfOf(guide));
    expect(answer?.sentences.map((sentence) => sentence.text)).toEqual([
      'Open the Dashboard and select the Articles tab.',
      'Open the Add article form.',
      'Enter a title.',
      'Submit the form.',
    ]);
    expect(answer?.citedSourceIndexes).toEqual([0]);
    // The steps read as a numbered list, cited once after the last: they all come from one source.
    expect(answer?.text).toBe(
      '1. Open the Dashboard and select the Articles tab.\n2. Open the Add article form.\n3. Enter a title.\n4. Submit the form. [1]',
    );
    // A question that does not ask how gets the one step.
    expect(composeExtractiveAnswer('Which form adds an article?', guide, idfOf(guide))?.sentences).toEqual([{ text: 'Open the Add article form.', sourceIndex: 0 }]);
  });

  it('answers a how-to question with the numbered steps about it, even when a sentence elsewhere repeats its words more', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 41,
        title: 'How to review and publish drafts',
        text:
          'Everything new starts as a draft. Reviewing and publishing drafts requires the editor role.\n\n## Open the Drafts view\n\n' +
          '1. Select the Articles tab.\n2. Open the Drafts view.\n\n## Where drafts come from\n\n- uploads,\n- crawls.\n\n## Publish\n\n' +
          '1. Select Publish.\n2. Watch the progress bar. Publishing indexes the drafts.\n3. Wait for the job to finish.',
      },
    ];
    const answer = composeExtractiveAnswer('How do I publish drafts?', guide, idfOf(guide));
    expect(answer?.text).toBe('1. Select Publish.\n2. Watch the progress bar. Publishing indexes the drafts.\n3. Wait for the job to finish. [1]');
    // Not a how-to question: the sentence that says it.
    expect(composeExtractiveAnswer('Who may publish drafts?', guide, idfOf(guide))?.text).toMatch(/^Reviewing and publishing drafts requires the editor role\. \[1\]/);
    // A bulleted list is not a procedure: it keeps its bullets.
    expect(composeExtractiveAnswer('How do drafts come from crawls?', guide, idfOf(guide))?.text).toBe('- uploads,\n- crawls. [1]');
  });

  it('answers a how-question in the passive with the steps, where the sources give steps, and as a fact elsewhere', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 41,
        title: 'How to review and publish drafts',
        text:
          'Take a moment to read each draft before publishing. Deleted drafts cannot be published later.\n\n## Publish\n\n' +
          '1. Select Publish.\n2. Watch the progress bar.\n3. Wait for the job to finish.',
      },
    ];
    const steps = '1. Select Publish.\n2. Watch the progress bar.\n3. Wait for the job to finish. [1]';
    expect(composeExtractiveAnswer('How do I publish drafts?', guide, idfOf(guide))?.text).toBe(steps);
    for (const question of ['How are drafts published?', 'How can a draft be published?', 'How does a draft get published?']) {
      expect(composeExtractiveAnswer(question, guide, idfOf(guide))?.text, question).toBe(steps);
    }
    expect(rankAnswerSentences('How are drafts published?', guide, idfOf(guide))?.asksHowTo).toBe(true);
    // Sources without steps: "How is it ranked?" asks of a fact, not how to rank it.
    const facts: AnswerSource[] = [
      { articleId: 7, title: 'Oxygen', text: 'Oxygen is the third most abundant chemical element in the universe, after hydrogen and helium. It is a chalcogen.' },
      ...otherArticles(8),
    ];
    const ranked = rankAnswerSentences('How is oxygen ranked as abundant in the universe?', facts, idfOf(facts));
    expect([ranked?.asksHowTo, ranked?.actionMissing, ranked?.candidates[0]?.text]).toEqual([false, undefined, facts[0]?.text.split(' It is')[0]]);
    // Asked as a how-to, no sentence says how to rank: nothing is found.
    expect(rankAnswerSentences('How do I rank oxygen as abundant in the universe?', facts, idfOf(facts))).toBeNull();
  });

  it('keeps a step of several sentences on one line of the list, cited after its last sentence', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 32,
        title: 'How to publish a draft',
        text: 'Drafts wait for review.\n\n1. Open the Drafts tab.\n2. Choose the draft. Its preview opens beside the list.\n3. Press Publish.',
      },
    ];
    const answer = composeExtractiveAnswer('How do I publish a draft?', guide, idfOf(guide));
    expect(answer?.sentences.map(({ step }) => step)).toEqual([1, 2, 2, 3]);
    expect(answer?.text).toBe('1. Open the Drafts tab.\n2. Choose the draft. Its preview opens beside the list.\n3. Press Publish. [1]');
    // A follow-up that asks how ("And how do I …") is a how-to question too.
    expect(composeExtractiveAnswer('And how do I publish a draft?', guide, idfOf(guide))?.text).toBe(answer?.text);
    expect(layOutAnswer([{ text: 'One.' }, { text: 'Two.' }], (index) => `[${index + 1}]`)).toBe('One. [1] Two. [2]');
    // Pieces join with a space, but a list starts on a line of its own, and so does what follows it.
    expect(joinAnswerPieces(['**How do I publish?**', '1. Select Publish.\n2. Wait. [1]', undefined, 'Then ask. [2]'])).toBe(
      '**How do I publish?**\n\n1. Select Publish.\n2. Wait. [1]\n\nThen ask. [2]',
    );
    expect(joinAnswerPieces(['**Who may publish?**', 'Editors may. [1]', null])).toBe('**Who may publish?** Editors may. [1]');
  });

  it('answers with the list whose heading and lead-in say what was asked, where no sentence does', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 51,
        title: 'How to upload files',
        text: '## Supported file types\n\nYou can upload:\n\n- PDF documents,\n- Markdown files,\n- CSV files, where each row becomes one article.',
      },
      { articleId: 52, title: 'Troubleshooting', text: 'Check the file type and size first. Then try again.' },
    ];
    const question = 'What file types can I upload?';
    const answer = composeExtractiveAnswer(question, guide, idfOf(guide));
    expect(answer?.text).toBe('You can upload:\n\n- PDF documents,\n- Markdown files,\n- CSV files, where each row becomes one article. [1]');
    expect(answer?.sentences.map(({ step }) => step)).toEqual([undefined, 1, 2, 3]);
    expect(answer?.numbered).toBe(false);
    // The lead-in is cited when it comes from another source than the list.
    expect(layOutAnswer([{ text: 'You can upload:' }, { text: 'PDF.', step: 1 }, { text: 'CSV.', step: 2 }], (index) => (index === 0 ? '[2]' : '[1]'), false)).toBe(
      'You can upload: [2]\n\n- PDF.\n- CSV. [1]',
    );
    // Items from several sources are each cited.
    expect(layOutAnswer([{ text: 'PDF.', step: 1 }, { text: 'CSV.', step: 2 }], (index) => `[${index + 1}]`)).toBe('1. PDF. [1]\n2. CSV. [2]');
    // A list that only has the question's words in its items is no answer by itself: the sentence that says it is.
    const items: AnswerSource[] = [
      { articleId: 53, title: 'Notes', text: 'Things to know:\n\n- Uploaded files of any type become drafts.\n- Large files take longer.' },
      { articleId: 54, title: 'Uploads', text: 'You can upload PDF and Markdown file types.' },
    ];
    const sentences = composeExtractiveAnswer(question, items, idfOf(items))?.sentences;
    expect(sentences?.map(({ text }) => text)).toContain('You can upload PDF and Markdown file types.');
    expect(sentences?.every(({ step }) => step === undefined)).toBe(true);
  });

  it('quotes the list a chosen sentence introduces with it, and never a further sentence that announces one', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 61,
        title: 'Semantic firewall',
        text: 'The firewall looks for three kinds of problem:\n\n- Prompt injection.\n- Out-of-scope requests.\n- Personal data.\n\nThe firewall also logs each problem:\n\n- as blocked.\n- with its reason.',
      },
    ];
    const answer = composeExtractiveAnswer('What kinds of problem does the firewall look for?', guide, idfOf(guide), { maxScoreGap: Infinity });
    expect(answer?.text).toBe('The firewall looks for three kinds of problem:\n\n- Prompt injection.\n- Out-of-scope requests.\n- Personal data. [1]');
    const blocking: AnswerSource[] = [{ articleId: 62, title: 'Blocking', text: 'Firewall problems are blocked and logged. The firewall looks for two kinds of problem:\n\n- Prompt injection.\n- Personal data.' }];
    const blocked = composeExtractiveAnswer('Which firewall problems are blocked?', blocking, idfOf(blocking), { maxScoreGap: Infinity });
    expect(blocked?.sentences.map(({ text }) => text)).toEqual(['Firewall problems are blocked and logged.']);
  });

  it('quotes the list the next sentence announces about the chosen one ("They can work with:")', () => {
    const guide: AnswerSource[] = [
      { articleId: 81, title: 'Roles', text: 'Editors look after the content. They can work with:\n\n- articles,\n- drafts,\n- logs.\n\nUsers ask questions.' },
    ];
    const answer = composeExtractiveAnswer('What can editors do?', guide, idfOf(guide));
    expect(answer?.text).toBe('Editors look after the content. They can work with:\n\n- articles,\n- drafts,\n- logs. [1]');
    // A lead-in that does not refer back ("Before you upload:") is about something else.
    const other: AnswerSource[] = [{ articleId: 82, title: 'Roles', text: 'Editors look after the content. Before you upload:\n\n- check the file,\n- check its size.' }];
    expect(composeExtractiveAnswer('What can editors do?', other, idfOf(other))?.text).toBe('Editors look after the content. [1]');
  });

  it('answers what something does with what it is and what it does, the sentences that go on from it', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 77,
        title: 'What the semantic firewall does',
        text: 'The semantic firewall is an optional safety layer. When it is switched on, every question is screened before the assistant answers it. Questions that should not be answered get a polite refusal instead of an answer.\n\nTurn the semantic firewall on under Bot settings.',
        score: 10,
      },
      ...otherArticles(90),
    ];
    const weights = idfOf(guide);
    expect(composeExtractiveAnswer('What does the semantic firewall do?', guide, weights)?.text).toBe(
      'The semantic firewall is an optional safety layer. [1] When it is switched on, every question is screened before the assistant answers it. [1]',
    );
    // Asked what it is, the sentence that says so answers whole.
    expect(composeExtractiveAnswer('What is the semantic firewall?', guide, weights)?.text).toBe('The semantic firewall is an optional safety layer. [1]');
  });

  it('reads a question with long runs of spaces or line breaks as the one with single spaces, at once', () => {
    const weights = idfOf(sources);
    for (const spaces of [' '.repeat(3900), '\t \n'.repeat(1300)]) {
      for (const question of [`What is${spaces}a reset link?`, `how do I${spaces}reset my password?`]) {
        expect(composeExtractiveAnswer(question, sources, weights)).toEqual(composeExtractiveAnswer(question.replace(/\s+/g, ' '), sources, weights));
      }
      expect(definitionFinder(`What is${spaces}a reset link?`)?.('A reset link is an address sent by email.')).toBe(true);
    }
  });

  it('answers what something is with the sentence that says what it is', () => {
    const guide: AnswerSource[] = [
      { articleId: 71, title: 'Settings', text: 'Agent settings hold the semantic firewall setting. Templates are managed on the Settings tab.', score: 10 },
      { articleId: 72, title: 'Safety', text: 'The semantic firewall is an optional safety layer that screens questions. Templates are documents with sections.', score: 6 },
    ];
    const weights = idfOf(guide);
    for (const question of ['What is the semantic firewall?', 'semantic firewall']) {
      expect(composeExtractiveAnswer(question, guide, weights, { maxSentences: 1 })?.sentences[0]?.text).toBe('The semantic firewall is an optional safety layer that screens questions.');
    }
    // "Templates are managed on …" says what is done with them, not what they are.
    expect(composeExtractiveAnswer('What are templates?', guide, weights, { maxSentences: 1 })?.sentences[0]?.text).toBe('Templates are documents with sections.');
    // Asked in the plural, said in the singular.
    const drafts: AnswerSource[] = [
      { articleId: 73, title: 'Reviewing', text: 'Open the Drafts view. You will see every draft waiting for review.', score: 10 },
      { articleId: 74, title: 'Publishing', text: 'A draft is an article that is not published yet.', score: 8 },
    ];
    expect(composeExtractiveAnswer('What are drafts?', drafts, idfOf(drafts), { maxSentences: 1 })?.sentences[0]?.text).toBe('A draft is an article that is not published yet.');
    // A word that only stresses the question changes nothing.
    expect(composeExtractiveAnswer('What exactly is a draft?', drafts, idfOf(drafts), { maxSentences: 1 })?.sentences[0]?.text).toBe('A draft is an article that is not published yet.');
    // "What can X do?" is answered by what says what X can do, with the list it announces.
    const roles: AnswerSource[] = [
      { articleId: 75, title: 'Users and roles', text: 'Select Add user to add a user. Give each user a role.', score: 10 },
      { articleId: 76, title: 'Roles', text: '## user\n\nUsers are the people it is for. Users can:\n\n- ask questions,\n- give feedback.', score: 8 },
    ];
    expect(composeExtractiveAnswer('What can a user do?', roles, idfOf(roles))?.text).toBe('Users can:\n\n- ask questions,\n- give feedback. [2]');
    // Named in a bracket, or before one.
    const admins: AnswerSource[] = [
      { articleId: 77, title: 'Sharing', text: 'Favourites are personal: administrators do not see yours.', score: 10 },
      { articleId: 78, title: 'Roles', text: 'An admin (administrator) can do everything: ask, manage and configure.', score: 9 },
    ];
    for (const question of ['What can an administrator do?', 'What can an admin do?']) {
      expect(composeExtractiveAnswer(question, admins, idfOf(admins))?.sentences[0]?.text).toBe('An admin (administrator) can do everything: ask, manage and configure.');
    }
    // The sentence that says what it is answers alone, with room for more.
    expect(composeExtractiveAnswer('What is a draft?', drafts, idfOf(drafts), { maxSentences: 3, maxScoreGap: 1 })?.sentences.map(({ text }) => text)).toEqual([
      'A draft is an article that is not published yet.',
    ]);
  });

  it('answers what something is for with the sentence that says what it is for, else with what it is', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Agent settings', text: 'Choose "Use default model" unless you want the agents to use a specific model.', score: 10 },
      {
        articleId: 2,
        title: 'How to use the general agent',
        text: 'A single question gets a single answer. For these, use the general agent: the agent is for requests too big for one answer. An agent is an assistant that works in several steps.',
        score: 9,
      },
    ];
    for (const question of ['What is the agent for?', 'What are agents used for?', 'What do I use the agent for?']) {
      expect(composeExtractiveAnswer(question, guide, idfOf(guide), { maxSentences: 1 })?.text, question).toBe(
        'For these, use the general agent: the agent is for requests too big for one answer. [2]',
      );
    }
    // Without a sentence that says what it is for, the one that says what it is answers.
    const definition: AnswerSource[] = [guide[0] as AnswerSource, { articleId: 3, title: 'Agents', text: 'Agents run on their own. An agent is an assistant that works in several steps.', score: 9 }];
    expect(composeExtractiveAnswer('What is the agent for?', definition, idfOf(definition), { maxSentences: 1 })?.text).toBe('An agent is an assistant that works in several steps. [2]');
  });

  it('answers how to do something to someone with the sentence that does it to whoever it names', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Users', text: 'To make someone an editor, open Users and choose the editor group. Give each person the smallest role.', score: 10 },
      { articleId: 2, title: 'Accounts', text: 'To invite a colleague who should choose their own password, select Invite user.', score: 9 },
    ];
    const weights = idfOf(guide);
    expect(composeExtractiveAnswer('How do I invite someone?', guide, weights)?.text).toBe('To invite a colleague who should choose their own password, select Invite user. [2]');
    // A person is whoever "someone" stands for.
    const users: AnswerSource[] = [
      { articleId: 3, title: 'How to edit or delete an article', text: '## Delete an article\n\n1. Find the article in the table.\n2. Choose to delete it.', score: 10 },
      { articleId: 4, title: 'Users', text: 'To remove a user, disable the account: accounts are not deleted.', score: 8 },
    ];
    expect(composeExtractiveAnswer('How do I remove someone?', users, idfOf([...users, ...guide]))?.text).toBe('To remove a user, disable the account: accounts are not deleted. [2]');
    // Said in the sentence, the pronoun still counts.
    expect(composeExtractiveAnswer('How do I make someone an editor?', guide, weights, { maxSentences: 1 })?.text).toBe('To make someone an editor, open Users and choose the editor group. [1]');
  });

  it('answers whether I can do something, when a step answers it best, with the whole list of steps', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to edit or delete an article',
        text: '## Edit a published article\n\n1. Find the article in the Articles table.\n2. Choose to edit it.\n3. Change the title or content.\n4. Save your changes.',
        score: 10,
      },
      { articleId: 2, title: 'Deleting', text: 'You cannot undo a delete: a deleted article cannot be restored.', score: 5 },
    ];
    const weights = idfOf(guide);
    expect(composeExtractiveAnswer('Can I edit a published article?', guide, weights)?.text).toBe(
      '1. Find the article in the Articles table.\n2. Choose to edit it.\n3. Change the title or content.\n4. Save your changes. [1]',
    );
    // A sentence that says it answers as before.
    expect(composeExtractiveAnswer('Can I undo a delete?', guide, weights)?.text).toBe('You cannot undo a delete: a deleted article cannot be restored. [2]');
  });

  it('answers a few words that start with a task\'s verb with the steps of the task', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to upload files',
        text: 'You can upload files on the Articles tab.\n\n## Upload one or more files\n\n1. Select the Articles tab.\n2. Open the file upload form.\n3. Choose the files.\n4. Submit the upload.',
        score: 10,
      },
    ];
    const steps = '1. Select the Articles tab.\n2. Open the file upload form.\n3. Choose the files.\n4. Submit the upload. [1]';
    for (const request of ['upload files', 'Upload files', 'upload the files']) expect(composeExtractiveAnswer(request, guide, idfOf(guide))?.text, request).toBe(steps);
    // A name is no task: it is answered by what says it.
    expect(composeExtractiveAnswer('file upload', guide, idfOf(guide), { maxSentences: 1 })?.text).not.toBe(steps);
  });

  it('answers how many with a sentence that counts, not one whose number names a field', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Bot settings',
        text: 'Query shortcuts are up to three common questions shown on the Ask screen. To add a shortcut:\n\n1. Open Settings.\n2. Under Query shortcuts, type the question in Shortcut 1 query.',
        score: 10,
      },
    ];
    expect(composeExtractiveAnswer('How many shortcuts can I have?', guide, idfOf(guide), { maxSentences: 1 })?.text).toBe(
      'Query shortcuts are up to three common questions shown on the Ask screen. [1]',
    );
  });

  it('answers where something is in the product with the sentence that names the screen', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Users, roles and sign-in', text: 'Editors see the query logs of their own organisation.', score: 10 },
      {
        articleId: 2,
        title: 'How to use the query logs and their filters',
        text: 'Every question asked in the assistant is logged. You find the query logs on the Logs tab, the third tab on the Dashboard.',
        score: 9,
      },
    ];
    // "See" is a word of many articles, as in a real guide.
    const seen = ['You see every draft waiting for review.', 'See the Settings tab.', 'You will see a message.', 'See the troubleshooting article.'];
    const weights = idfOf([...guide, ...seen.map((text, position) => ({ articleId: 10 + position, title: 'Other', text }))]);
    for (const question of ['Where do I see query logs?', 'Where can I find the query logs?', 'Where are the query logs?']) {
      expect(composeExtractiveAnswer(question, guide, weights, { maxSentences: 1 })?.text, question).toBe('You find the query logs on the Logs tab, the third tab on the Dashboard. [2]');
    }
    // Asked otherwise, it is read as before.
    expect(composeExtractiveAnswer('Where did editors see query logs?', guide, weights, { maxSentences: 1 })?.text).toBe('Editors see the query logs of their own organisation. [1]');
  });

  it('answers the difference between two things with what one of them is, not with a sentence that says different', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Editing articles', text: '## Drafts are different\n\nDrafts are edited in the Drafts view, not in the Articles table.', score: 10 },
      { articleId: 2, title: 'Not found', text: '- **Different words.** The search matches forms of the same word, so "adding articles" finds "add an article".', score: 8 },
      { articleId: 3, title: 'Publishing', text: 'A draft is an article that is not published yet: everything new starts as one.', score: 5 },
    ];
    for (const question of ['What is the difference between a draft and an article?', "What's the difference between an article and a draft?"]) {
      expect(composeExtractiveAnswer(question, guide, idfOf(guide))?.sentences.map(({ text }) => text)).toEqual([
        'A draft is an article that is not published yet: everything new starts as one.',
      ]);
    }
    expect(definitionFinder('What is the difference between a draft and an article?')?.('Drafts wait. An article is a page that answers questions.')).toBe(true);
  });

  it('prefers the sentence that says what it is to a glossary entry or a sentence that says something of it, and quotes it alone', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 91,
        title: 'Agent settings',
        text: '## Agent settings\n\n- **agents** – each with a name, description, instructions and tools.\n- **max_iteration** – how many times an agent may loop.',
        score: 10,
      },
      { articleId: 92, title: 'Troubleshooting', text: 'The agent is too slow when the knowledge base is large.', score: 9.5 },
      { articleId: 93, title: 'Several steps', text: 'An agent is an assistant that works through a request in several steps on its own.', score: 9 },
    ];
    expect(composeExtractiveAnswer('What is an agent?', guide, idfOf(guide), { maxScoreGap: 1 })?.sentences.map(({ text }) => text)).toEqual([
      'An agent is an assistant that works through a request in several steps on its own.',
    ]);
    // Without a sentence that says what it is, the glossary's entry answers.
    expect(composeExtractiveAnswer('What are agents?', guide.slice(0, 2), idfOf(guide), { maxSentences: 1 })?.text).toBe(
      'agents – each with a name, description, instructions and tools. [1]',
    );
  });

  it('answers not-found when the passages are about something else than what was asked', () => {
    expect(composeExtractiveAnswer('What is the refund policy for the swimming pool?', library, libraryWeights)).toBeNull();
    expect(composeExtractiveAnswer('Where do I get a parking permit for the swimming pool?', library, libraryWeights)).toBeNull();
    // The shop's own refund policy is found.
    expect(composeExtractiveAnswer('What is the refund policy?', library, libraryWeights)?.citedSourceIndexes).toEqual([1]);
  });

  it('still answers a question that carries contact details', () => {
    const answer = composeExtractiveAnswer('My email is x@y.z, how do I get a library card?', library, libraryWeights);
    expect(answer?.sentences[0]?.text).toBe('You can get a library card at any branch desk with a photo ID.');
  });

  it('answers in a small knowledge base where the question\'s verb is in no article', () => {
    const small: AnswerSource[] = [
      { articleId: 1, title: 'Library cards', text: 'A library card is free for residents. Bring a proof of address to the front desk.' },
      { articleId: 2, title: 'Opening hours', text: 'The reading room opens at nine and closes at six. On Sundays it is closed.' },
      { articleId: 3, title: 'Returning books', text: 'Books go back within three weeks. Late returns pay a small fine per day.' },
    ];
    const index = new Bm25Index();
    small.forEach((source, position) => index.add({ chunkId: position + 1, articleId: source.articleId, ...countChunkTerms(source.text, source.title) }));
    const answer = composeExtractiveAnswer('How do I get a library card?', small, (term) => index.idf(term));
    expect(answer?.sentences[0]?.text).toBe('A library card is free for residents.');
    expect(composeExtractiveAnswer('What is the refund policy for the swimming pool?', small, (term) => index.idf(term))).toBeNull();
  });

  it('answers not found when a how-to or can-I question asks for an action no source names', () => {
    const sources: AnswerSource[] = [
      { articleId: 1, title: 'Library cards', text: 'A library card is free for residents. Bring a proof of address to the front desk. A lost card is replaced at the desk.' },
      { articleId: 2, title: 'Returning books', text: 'Books go back within three weeks. Late returns pay a small fine per day. A card with unpaid fines is blocked until it is replaced.' },
    ];
    const index = new Bm25Index();
    [...sources, ...otherArticles(3)].forEach((source, position) => index.add({ chunkId: position + 1, articleId: source.articleId, ...countChunkTerms(source.text, source.title) }));
    const weightOf = (term: string) => index.idf(term);
    // Renewing a card is nowhere: what the sources say of cards is no answer to it.
    for (const question of ['How do I renew my library card?', 'Can I renew a library card?', 'Is it possible to renew a library card?', 'how to renew a library card'])
      expect(composeExtractiveAnswer(question, sources, weightOf), question).toBeNull();
    // Named (in another form, or misspelt as the search reads it), it is answered.
    expect(composeExtractiveAnswer('How do I replace a lost library card?', sources, weightOf)?.sentences[0]?.text).toBe('A lost card is replaced at the desk.');
    expect(composeExtractiveAnswer('How do I repalce a lost library card?', sources, weightOf, {}, (term) => index.correction(term))?.text).toMatch(/replaced/);
    // A light verb or a phrasal one says too little to refuse on: the card is the point.
    expect(composeExtractiveAnswer('How do I get a library card?', sources, weightOf)).not.toBeNull();
    expect(composeExtractiveAnswer('How do I pay off late fines?', sources, weightOf)).not.toBeNull();
  });

  it('prefers the sentence with a year when the question asks for one', () => {
    const answer = composeExtractiveAnswer('What year did the library open?', library, libraryWeights);
    expect(answer?.sentences).toEqual([{ text: 'The library opened in 1962 on Main Street.', sourceIndex: 2 }]);
  });

  it('prefers the better-scored passage when the caller gives scores', () => {
    const twins: AnswerSource[] = [
      { articleId: 1, title: 'A', text: 'Backups run daily at midnight.', score: 2 },
      { articleId: 2, title: 'B', text: 'Backups run daily at noon.', score: 9 },
    ];
    expect(composeExtractiveAnswer('When do backups run daily?', twins, () => 1)?.citedSourceIndexes).toEqual([1]);
  });

  it('answers "how often" with the sentence that says how often, over one that only repeats the question words', () => {
    const compost: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Composting kitchen scraps',
        text: 'A compost heap turns kitchen scraps into dark crumbly soil. Mix green waste with brown waste.\n\nTurn the heap every fortnight so air reaches the middle.',
      },
    ];
    const weights: Record<string, number> = { often: 3, turn: 1, compost: 1.5, heap: 1.5 };
    const answer = composeExtractiveAnswer('How often should I turn the compost heap?', compost, (term) => weights[term] ?? 1);
    expect(answer?.text).toContain('Turn the heap every fortnight');
  });

  it('does not read "every" as the length a "how long" question asks for', () => {
    const logs: AnswerSource[] = [
      { articleId: 1, title: 'Query logs', text: 'The query logs keep a record of every question asked.', score: 4 },
      { articleId: 2, title: 'Keeping logs', text: 'Query logs are kept as long as the knowledge base itself.', score: 5 },
    ];
    const weights: Record<string, number> = { queri: 1, log: 1, kept: 2, keep: 2 };
    expect(rankAnswerSentences('How long are query logs kept?', logs, (term) => weights[term] ?? 1)?.candidates[0]?.text).toBe(
      'Query logs are kept as long as the knowledge base itself.',
    );
    expect(composeExtractiveAnswer('How long are query logs kept?', logs, (term) => weights[term] ?? 1)?.text).toContain('kept as long as the knowledge base');
  });
});

describe('composeExtractiveAnswer, the structure of a guide', () => {
  const others = otherArticles(90);
  const weightsOf = (sources: AnswerSource[]) => idfOf([...sources, ...others]);
  /** The first sentence of the answer from `guide`, with the guide's and the other articles' weights. */
  const firstSentenceOf = (question: string, guide: AnswerSource[]) => composeExtractiveAnswer(question, guide, weightsOf(guide))?.sentences[0]?.text;

  it('reads a sentence with the heading over it', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to filter and sort the articles table',
        text: 'The Articles tab lists your published articles in a table. When the knowledge base grows, sorting and filtering help you find the right article quickly.',
        score: 9.9,
      },
      {
        articleId: 1,
        title: 'How to filter and sort the articles table',
        text:
          '## Sort the table\n\nSelect a column heading to sort by that column. Select it again to reverse the order. For example, sort by a date column ' +
          'to see the most recently changed articles first, or by title to list articles alphabetically.',
        score: 9.6,
      },
      {
        articleId: 1,
        title: 'How to filter and sort the articles table',
        text: '## Pages\n\nThe table shows 30 rows per page. Use the pagination controls under the table to move between pages. Filters and sorting apply to the whole list.',
        score: 9.2,
      },
    ];
    // Weights as in a guide where most articles say article and many say table.
    const weights: Record<string, number> = { sort: 3, tabl: 1.5, articl: 0.4 };
    expect(composeExtractiveAnswer('How do I sort the articles table?', guide, (term) => weights[term] ?? 1)?.sentences[0]?.text).toBe(
      'Select a column heading to sort by that column.',
    );
  });

  it('never quotes a sentence about the article itself, nor one that announces what it cannot show', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to install and run the product',
        text: 'This article is for administrators. It covers starting the product, where data is stored, and the API.\n\n## Install\n\nStart the product from the project folder:\n\nThe product then listens on port 3000.',
      },
    ];
    const answer = composeExtractiveAnswer('How do I start the product?', guide, weightsOf(guide));
    expect(answer?.text).not.toMatch(/It covers|This article|folder:/);
    expect(answer?.sentences[0]?.text).toBe('The product then listens on port 3000.');
  });

  it('answers a how-to question with the steps that name its action in an article about it, not with other steps of that article', () => {
    const crawling: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to crawl a web site',
        text: '## Start a crawl\n\n1. Select the Articles tab.\n2. Open the crawl form.\n3. Enter the start address.\n4. Start the crawl.',
      },
      { articleId: 1, title: 'How to crawl a web site', text: '## Review and publish\n\n1. Delete pages that are not useful.\n2. Publish the rest.' },
      { articleId: 2, title: 'How to review drafts', text: 'A draft is created when you:\n\n- add an article,\n- upload files,\n- crawl a web site.' },
    ];
    expect(composeExtractiveAnswer('How do I crawl a web site?', crawling, weightsOf(crawling))?.text).toBe(
      '1. Select the Articles tab.\n2. Open the crawl form.\n3. Enter the start address.\n4. Start the crawl. [1]',
    );
    // Steps that do not name the action are not taken for it on the strength of the title.
    const logs: AnswerSource[] = [
      { articleId: 3, title: 'How to use the query logs and their filters', text: '## Browse the logs\n\n1. Select the Logs tab.\n2. Select Load more to see the next rows.' },
      { articleId: 3, title: 'How to use the query logs and their filters', text: '## Filter by status\n\nUse the status filter to see only the liked or disliked logs.' },
    ];
    expect(composeExtractiveAnswer('How do I filter the logs?', logs, weightsOf(logs))?.sentences[0]?.text).toBe('Use the status filter to see only the liked or disliked logs.');
  });

  it('does not answer a how-to with the list of another task that names its action only in a middle step', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'How to edit or delete an article', text: '## Drafts are different\n\nDrafts are edited and deleted in the Drafts view, not in the Articles table.', score: 7.2 },
      {
        articleId: 2,
        title: 'How to add video transcripts',
        text:
          '## Review the draft\n\nA transcript deserves a careful review before publishing:\n\n1. Open the Drafts view and find the new draft.\n' +
          '2. Give it a clear title.\n3. Fix names and numbers.\n4. Delete the draft if the video turns out not to be useful.\n5. Select Publish.',
        score: 6.0,
      },
      { articleId: 3, title: 'How to upload files', text: '## Review and publish\n\n1. Open the Drafts view.\n2. Edit or delete drafts as needed.\n3. Select Publish.', score: 6.1 },
    ];
    const answer = composeExtractiveAnswer('How do I delete a draft?', guide, weightsOf(guide));
    expect(answer?.sentences[0]?.text).toBe('Drafts are edited and deleted in the Drafts view, not in the Articles table.');
    expect(answer?.text).not.toContain('Select Publish');
    // Steps that end with the action, or start with it, are about it.
    const steps: AnswerSource[] = [
      { articleId: 4, title: 'Drafts', text: '## Steps\n\n1. Open the Drafts view.\n2. Select the draft.\n3. Delete the draft.', score: 7 },
      guide[0] as AnswerSource,
    ];
    expect(composeExtractiveAnswer('How do I delete a draft?', steps, weightsOf(steps))?.text).toBe('1. Open the Drafts view.\n2. Select the draft.\n3. Delete the draft. [1]');
  });

  it('answers a how-to question whose verb says little with the steps of the article whose title says how', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'How to give feedback on an answer', text: '## Rate an answer\n\n1. Read the answer.\n2. Select thumbs up or thumbs down.', score: 5 },
      { articleId: 1, title: 'How to give feedback on an answer', text: '## Tips\n\n- Give feedback on good answers too.\n- Be honest.', score: 6 },
      { articleId: 2, title: 'Logs', text: '1. Open the Logs tab.\n2. Filter by feedback.', score: 4 },
    ];
    expect(composeExtractiveAnswer('How do I give feedback?', guide, weightsOf(guide))?.text).toBe('1. Read the answer.\n2. Select thumbs up or thumbs down. [1]');
  });

  it('answers what a setting is with its entry in a glossary list, which starts in lower case', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Bot settings explained',
        text: 'The settings are:\n\n- llm_model – the language model used to write answers.\n- multiple_model – when on, people may choose among the models offered.\n- bot_prefix – text the instructions start with.',
      },
      { articleId: 2, title: 'Models', text: 'A service may offer multiple models, and each model has a name.' },
    ];
    expect(firstSentenceOf('What is multiple_model?', guide)).toBe('multiple_model – when on, people may choose among the models offered.');
    expect(firstSentenceOf('What does bot_prefix mean?', guide)).toBe('bot_prefix – text the instructions start with.');
    expect(firstSentenceOf('What does multiple_model do?', guide)).toBe('multiple_model – when on, people may choose among the models offered.');
  });

  it('answers a question its heading says with the section under it, which need not repeat it', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Troubleshooting',
        text: '## A new article is not used in answers\n\nCheck that it was published. Drafts are never used.\n\n## A source is deleted\n\nThe article was deleted.',
        score: 6,
      },
      { articleId: 2, title: 'Deleting', text: 'A deleted article cannot be restored: add it again as a new article and publish it.', score: 7 },
    ];
    expect(firstSentenceOf('Why is my new article not used in answers?', guide)).toBe('Check that it was published.');
    // A how-to question is not answered by a heading, nor a question of a word or two, which many headings say.
    expect(firstSentenceOf('How do I use a new article in answers?', guide)).not.toBe('Check that it was published.');
    const roles: AnswerSource[] = [
      { articleId: 3, title: 'Users', text: '## Roles\n\nEach user has one of three roles: admin, editor and user. Most need one.\n\n## Change a role\n\nSave it.' },
    ];
    expect(firstSentenceOf('What roles are there?', roles)).toBe('Each user has one of three roles: admin, editor and user.');
    // A question of a word or two is said by a heading that asks with its own question word.
    const reasons: AnswerSource[] = [
      {
        articleId: 4,
        title: 'When nothing is found',
        text: '## Why you get no answer\n\nThere are a few common reasons:\n\n- The topic is not covered yet.\n- The article is still a draft.',
        score: 5,
      },
      { articleId: 5, title: 'The assistant', text: 'Ask a question on the Ask screen and get an answer with its sources.', score: 5 },
    ];
    expect(composeExtractiveAnswer('Why did I get no answer?', reasons, weightsOf(reasons))?.text).toBe(
      'There are a few common reasons:\n\n- The topic is not covered yet.\n- The article is still a draft. [1]',
    );
    // Such a section opens with its answer, and a list it announces comes with it.
    const templates: AnswerSource[] = [
      {
        articleId: 6,
        title: 'The government agent',
        text: '## What a template is\n\nA template describes the document you want. It has:\n\n- a name,\n- sections.\n\nIt is kept in Settings.',
        score: 5,
      },
    ];
    expect(composeExtractiveAnswer('What is a template?', templates, weightsOf(templates))?.text).toBe(
      'A template describes the document you want. It has:\n\n- a name,\n- sections. [1]',
    );
  });

  it('answers a how-to question with the steps of the article whose title says how to do the asked action', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'How to add YouTube video transcripts', text: '## Steps\n\n1. Open the form.\n2. Paste the address.\n3. Submit the form.', score: 5 },
      { articleId: 2, title: 'Drafts', text: 'A draft is created when you:\n\n- add an article,\n- add YouTube video transcripts,\n- upload files.', score: 6 },
    ];
    expect(composeExtractiveAnswer('How do I add a YouTube video?', guide, weightsOf(guide))?.text).toBe(
      '1. Open the form.\n2. Paste the address.\n3. Submit the form. [1]',
    );
  });

  it('never answers with a sentence or steps that quote the question as an example of what to type', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to use the agent',
        text: '## Run the agent\n\n1. Open the agent.\n2. Type your command, for example: "Compare the steps for uploading files and crawling a web site."\n3. Send the command.',
      },
      { articleId: 2, title: 'How to upload files', text: '## Upload files\n\n1. Open the file upload form.\n2. Choose the files.\n3. Submit the upload.' },
    ];
    const answer = composeExtractiveAnswer('Compare the steps for uploading files', guide, weightsOf(guide));
    expect(answer?.text).toBe('1. Open the file upload form.\n2. Choose the files.\n3. Submit the upload. [2]');
    const sentence: AnswerSource[] = [
      { articleId: 1, title: 'Agent', text: 'Be specific, for example: "Compare the steps for uploading files and crawling a web site." It helps.' },
      { articleId: 2, title: 'Upload', text: 'Uploading files turns them into drafts, step by step.' },
    ];
    expect(composeExtractiveAnswer('Compare the steps for uploading files', sentence, weightsOf(sentence))?.sentences[0]?.text).toBe('Uploading files turns them into drafts, step by step.');
    // A quotation the question only borrows from is an answer.
    const speech: AnswerSource[] = [{ articleId: 3, title: 'Speeches', text: 'The mayor said "we will open the new library in the spring of next year" at the opening.' }];
    expect(composeExtractiveAnswer('Who said we will open the new library?', speech, weightsOf(speech))).not.toBeNull();
  });

  it('answers "how large" with the sentence under the heading that names the size', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'How to upload files', text: '## Size limit\n\nBy default, each file can be up to 25 MB.', score: 9.4 },
      { articleId: 1, title: 'How to upload files', text: 'Open the file upload form and choose the files you want to add.', score: 8 },
    ];
    const weights: Record<string, number> = { upload: 1.5, file: 1.2, size: 2.5 };
    expect(composeExtractiveAnswer('How large can an uploaded file be?', guide, (term) => weights[term] ?? 1)?.sentences[0]?.text).toBe(
      'By default, each file can be up to 25 MB.',
    );
    // A sentence that names the size and gives none does not say how large, nor do the steps under a heading that
    // names the rest of the question.
    const more: AnswerSource[] = [
      { articleId: 1, title: 'How to upload files', text: '## If the upload fails\n\nCheck the file type and size first.', score: 9.5 },
      guide[0] as AnswerSource,
      { articleId: 1, title: 'How to upload files', text: '## Upload files\n\n1. Open the file upload form.\n2. Choose the files.\n3. Submit the upload.', score: 9 },
    ];
    expect(composeExtractiveAnswer('How big can an uploaded file be?', more, weightsOf(more))?.sentences[0]?.text).toBe('By default, each file can be up to 25 MB.');
  });

  it('leaves out the measure a "how long" question adds when no source names it', () => {
    const renewal: AnswerSource[] = [
      { articleId: 1, title: 'Passport renewal', text: 'To renew a passport, fill in the renewal form. A passport renewal takes long: about six weeks.' },
      { articleId: 2, title: 'Library cards', text: 'A library card is free for residents.' },
    ];
    // Most articles say how long things take.
    const taking = ['Driving licence', 'Building permit', 'Parking permit'].map((title, position) => ({ articleId: 10 + position, title, text: `A ${title.toLowerCase()} takes weeks.` }));
    // "length" is in no article: it weighs nothing, rather than the most.
    expect(composeExtractiveAnswer('And how long does it take?', renewal, idfOf([...renewal, ...taking]))?.sentences[0]?.text).toBe(
      'A passport renewal takes long: about six weeks.',
    );
  });

  it('answers a how-to question with a sentence about what it asks to act on, not one that only names the action', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Semantic firewall', text: 'When it is switched on, every question is screened before the assistant answers it.', score: 9.8 },
      { articleId: 2, title: 'Install and run', text: '## Choose a sponsor theme\n\nThere are 27 built-in themes. To change the theme, start the product again with another key.', score: 9.1 },
    ];
    // "switch" is rarer than "theme" here: without the rule, the firewall's sentence covers more.
    const weights: Record<string, number> = { switch: 3, theme: 1.2 };
    const weightOf = (term: string) => weights[term] ?? 1;
    expect(composeExtractiveAnswer('How do I switch themes?', guide, weightOf)?.sentences.map((sentence) => sentence.text)).toEqual([
      'To change the theme, start the product again with another key.',
    ]);
    // Not a how-to question: the action is not asked for, and the same sentence is not preferred for saying how.
    expect(composeExtractiveAnswer('Why switch themes?', guide, weightOf)?.sentences[0]?.text).toBe('When it is switched on, every question is screened before the assistant answers it.');
    // Only the action, nowhere with the theme: not found.
    expect(composeExtractiveAnswer('How do I switch themes?', guide.slice(0, 1), weightOf)).toBeNull();
  });

  it('prefers, for a how-to question, the sentence that says how to do it ("To change the theme, …")', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Install and run', text: '## Choose a sponsor theme\n\nOnly administrators change the theme. To change the theme, start the product again with another key.' },
    ];
    expect(firstSentenceOf('How can I change the theme?', guide)).toBe('To change the theme, start the product again with another key.');
    // Not asked how: the shorter sentence, which says as much of the question.
    expect(firstSentenceOf('Who can change the theme?', guide)).toBe('Only administrators change the theme.');
  });

  it('reads "need" in a text as the question\'s "require", and "requires" as its "need"', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Uploading', text: 'Uploading is done from the Articles tab. To upload files, you need the editor role.' },
      { articleId: 2, title: 'Crawling', text: 'Crawling starts from one page. Crawling requires the editor role.' },
    ];
    expect(firstSentenceOf('What does uploading require?', guide)).toBe('To upload files, you need the editor role.');
    expect(firstSentenceOf('What does crawling need?', guide)).toBe('Crawling requires the editor role.');
  });

  it('answers a how-to question only with what names its action, or a verb that does the same', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'How to publish drafts', text: '## Publish\n\n1. Open the Drafts view.\n2. Select Publish.\n3. Wait for the job to finish.', score: 9.5 },
      { articleId: 2, title: 'Search settings', text: 'Try one change at a time. Keep the change if answers improve; undo it if not.', score: 7 },
      { articleId: 3, title: 'How to edit and delete articles', text: '## Delete an article\n\n1. Find the article in the Articles table.\n2. Choose to delete it.', score: 6 },
    ];
    const weightOf = weightsOf(guide);
    // "undo" is in a source, never with a publish: the publish steps do not undo one.
    expect(composeExtractiveAnswer('Can I undo a publish?', guide, weightOf)).toBeNull();
    expect(composeExtractiveAnswer('How do I undo a publish?', guide, weightOf)).toBeNull();
    // "remove" where the guide says delete, "erase" where no source has the word at all.
    for (const question of ['How do I remove an article?', 'How do I erase an article?']) {
      expect(composeExtractiveAnswer(question, guide, weightOf)?.text).toBe('1. Find the article in the Articles table.\n2. Choose to delete it. [3]');
    }
    // The verb no source has is read as the one they use: it does not weigh the most for being in none.
    const erase = rankAnswerSentences('How do I erase an article?', guide, weightOf);
    expect([...(erase?.termShares.keys() ?? [])].sort()).toEqual(['articl', 'delet']);
    expect(composeExtractiveAnswer('How do I publish drafts?', guide, weightOf)?.sentences.map((sentence) => sentence.text)).toEqual([
      'Open the Drafts view.',
      'Select Publish.',
      'Wait for the job to finish.',
    ]);
  });

  it('answers a how-to question with no steps that name nothing the action is done to', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Comments on logs', text: '### Edit or delete a comment\n\n1. Open the log and find the comment.\n2. Choose to edit or delete it.', score: 9 },
      { articleId: 2, title: 'Reviewing', text: 'Drafts are edited and deleted in the Drafts view, not in the Articles table.', score: 6 },
    ];
    // The comment's steps edit (as update asks) but no draft: the sentence that names drafts answers.
    expect(composeExtractiveAnswer('How do I update a draft?', guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text)).toEqual([
      'Drafts are edited and deleted in the Drafts view, not in the Articles table.',
    ]);
    expect(composeExtractiveAnswer('How do I update a comment?', guide, weightsOf(guide))?.text).toBe('1. Open the log and find the comment.\n2. Choose to edit or delete it. [1]');
  });

  it('answers a how-to question with no steps headed by another action', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Editing and deleting articles', text: '## Delete an article\n\n1. Find the article in the Articles table.\n2. Choose to delete it.', score: 9 },
      { articleId: 2, title: 'Viewing articles', text: '## View an article\n\n1. Select the Articles tab.\n2. Find the article in the table, with the column filters.\n3. Open it.', score: 7 },
      { articleId: 3, title: 'Users', text: '## Disable a user or change a role\n\n1. Open Users and select the user.\n2. Clear Enabled to disable the account.', score: 5 },
    ];
    const weightOf = weightsOf(guide);
    // "Find the article" is a step of deleting one.
    expect(composeExtractiveAnswer('How do I find an article?', guide, weightOf)?.text).toMatch(/^1\. Select the Articles tab\.\n2\. Find the article in the table/);
    expect(composeExtractiveAnswer('How do I remove an article?', guide, weightOf)?.text).toBe('1. Find the article in the Articles table.\n2. Choose to delete it. [1]');
    // A heading that also names the asked action is for it.
    expect(composeExtractiveAnswer('How do I disable a user?', guide, weightOf)?.text).toMatch(/^1\. Open Users and select the user\./);
  });

  it('answers a phrasal verb with what says it, or a phrasal verb that does the same, where something does', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Logs', text: '## Browse the logs\n\n1. Select the Logs tab.\n2. Select Load more to see the next 50.', score: 9 },
      { articleId: 2, title: 'Signing in', text: 'To sign in, open the app. To sign out, select Sign out beside your username.', score: 4 },
    ];
    expect(firstSentenceOf('How do I log out?', guide)).toBe('To sign out, select Sign out beside your username.');
    expect(firstSentenceOf('How do I log in?', guide)).toBe('To sign in, open the app.');
    // Said nowhere: the words as they are.
    expect(firstSentenceOf('How do I log off?', guide.slice(0, 1))).toBe('Select the Logs tab.');
  });

  it('never answers with a lower-case list item alone: the next sentence stands in for it', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Asking', text: 'Once you have an answer, you can:\n\n- give it a thumbs down,\n- save it.', score: 9 },
      { articleId: 2, title: 'Feedback', text: 'Each thumbs down is stored with the log of the question.', score: 8 },
    ];
    expect(composeExtractiveAnswer('What about a thumbs down?', guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text)).toEqual([
      'Each thumbs down is stored with the log of the question.',
    ]);
  });

  it('answers with a glossary entry of a list, whose dash makes it stand alone, though it starts in lower case', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Bot settings explained',
        text: 'Three more matter only for MMR search:\n\n- **mmr_lambda** (**MMR relevance (λ)**) – from 0 (the most varied sources) to 1 (the most relevant ones); 0.7 by default.\n- **num_sources_k** – how many sources are used.',
        score: 9,
      },
      { articleId: 2, title: 'Search types', text: 'MMR search is available when an embeddings provider is configured.', score: 8 },
    ];
    expect(composeExtractiveAnswer('What does mmr_lambda do?', guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text)).toEqual([
      'mmr_lambda (MMR relevance (λ)) – from 0 (the most varied sources) to 1 (the most relevant ones); 0.7 by default.',
    ]);
    // An entry for something the question does not name only completes its list.
    const settings: AnswerSource[] = [
      { articleId: 1, title: 'Bot settings explained', text: 'The model is told these:\n\n- **bot_prefix** – text the model instructions start with.\n- **bot_type** – qa or sms.', score: 9 },
      { articleId: 2, title: 'Prompt templates', text: 'Prompt templates are the model instructions.', score: 8 },
    ];
    expect(composeExtractiveAnswer('What are the model instructions?', settings, weightsOf(settings))?.sentences.map((sentence) => sentence.text)).toEqual([
      'Prompt templates are the model instructions.',
    ]);
  });

  it('answers of a name on the screen whose small words the search drops with the sentence that says it, and only with such sentences', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Editing and deleting articles', text: 'Deleting an article does not delete any query logs.', score: 9 },
      { articleId: 2, title: 'Reviewing drafts', text: 'If an import went wrong entirely, **Delete all** removes every draft at once.', score: 8 },
      { articleId: 3, title: 'Uploading files', text: 'This is a good moment to use **Delete all** if the import did not come out as expected.', score: 7 },
      { articleId: 4, title: 'Publishing', text: 'No button turns a published article back into a draft.', score: 6 },
    ];
    const answer = (question: string, sources = guide) => composeExtractiveAnswer(question, sources, weightsOf(sources))?.sentences.map((sentence) => sentence.text);
    // "all" is a word the search drops: the question reads "delete" alone, which the first sentence says as well.
    expect(answer('What does Delete all do?')).toEqual([
      'If an import went wrong entirely, Delete all removes every draft at once.',
      'This is a good moment to use Delete all if the import did not come out as expected.',
    ]);
    // What the name is ("button") is said by the sentence that says the name.
    expect(answer('What does the Delete all button do?')?.[0]).toBe('If an import went wrong entirely, Delete all removes every draft at once.');
    expect(answer('What does the Delete all button do?')).not.toContain('No button turns a published article back into a draft.');
    // Steps that do not say it are about another task.
    const steps: AnswerSource[] = [
      { articleId: 5, title: 'Deleting an article', text: 'To delete an article:\n\n1. Find the article in the Articles table.\n2. Choose to delete it.', score: 10 },
      ...guide.slice(2, 3),
    ];
    expect(answer('How do I use Delete all?', steps)).toEqual(['This is a good moment to use Delete all if the import did not come out as expected.']);
    // A further sentence that does not say it tells of something else.
    expect(answer('What does Delete all do?', guide.slice(0, 2))).toEqual(['If an import went wrong entirely, Delete all removes every draft at once.']);
    const drafts: AnswerSource[] = [
      { articleId: 6, title: 'Reviewing drafts', text: 'To delete drafts:\n\n1. Open the **Drafts** view.\n2. Select **Delete** on the row of each draft.', score: 10 },
      ...guide.slice(1, 2),
    ];
    expect(answer('How do I delete drafts with Delete all?', drafts)).toEqual(['If an import went wrong entirely, Delete all removes every draft at once.']);
    // Written in lower case, it is no name on the screen.
    expect(answer('What does delete all do?')?.[0]).toBe('Deleting an article does not delete any query logs.');
  });

  it('adds no list item that only completes its lead-in as a further sentence', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'Comments', text: 'Delete comments that are no longer relevant or were added by mistake.' },
      { articleId: 2, title: 'Roles', text: 'Editors can work with:\n\n- articles,\n- add, edit or delete comments,\n- exports.' },
    ];
    const answer = composeExtractiveAnswer('Why delete comments?', guide, weightsOf(guide), { maxScoreGap: 5, minFreshCoverage: 0 });
    expect(answer?.sentences.map((sentence) => sentence.text)).toEqual(['Delete comments that are no longer relevant or were added by mistake.']);
  });

  it('answers what happens when something is done (or "if I do it, does …?") with what follows the step that does it, not with the step', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Organisations, groups and API keys',
        text:
          '## API keys\n\nAn API key lets a program call the backend. If it is lost, revoke it and create another.\n\n### Revoke an API key\n\n' +
          'To revoke an API key, select **Revoke…** beside it in the **API keys** table, then **Yes, revoke key**. Programs using it are refused from their next call. This cannot be undone.\n\n' +
          '### Delete an organisation\n\nTo delete an organisation:\n\n1. Open **Organisations** and select **Manage** beside it.\n2. Under **Delete the organisation**, tick **Yes, delete**.\n3. Select **Delete organisation**.\n\n' +
          'Only an organisation that no longer has users or query logs can be deleted.',
        score: 9,
      },
      { articleId: 2, title: 'Signing in', text: 'A key in the address bar is never shown to other users. Sign-in uses your password.', score: 4 },
    ];
    const answer = (question: string) => composeExtractiveAnswer(question, guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text) ?? [];
    const revoked = answer('What happens when I revoke an API key?');
    expect(revoked).toContain('Programs using it are refused from their next call.');
    expect(revoked).not.toContain('To revoke an API key, select Revoke… beside it in the API keys table, then Yes, revoke key.');
    // Asked as a condition and a question on what follows.
    const asIf = answer('If I revoke an API key, does it still work?');
    expect(asIf).toContain('Programs using it are refused from their next call.');
    expect(asIf).not.toContain('To revoke an API key, select Revoke… beside it in the API keys table, then Yes, revoke key.');
    const deleted = answer('What happens if I delete an organisation?');
    expect(deleted).toContain('Only an organisation that no longer has users or query logs can be deleted.');
    expect(deleted.filter((sentence) => /^(?:To delete|Open|Under|Select)\b/.test(sentence))).toEqual([]);
    // Asked how, the step is the answer, and the steps are quoted whole.
    expect(answer('How do I revoke an API key?')[0]).toBe('To revoke an API key, select Revoke… beside it in the API keys table, then Yes, revoke key.');
    expect(answer('How do I delete an organisation?')).toEqual(
      expect.arrayContaining(['Open Organisations and select Manage beside it.', 'Under Delete the organisation, tick Yes, delete.', 'Select Delete organisation.']),
    );
  });

  it('scores a one-word list item no better than a sentence of a few words for being short', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to install and run the product and choose a theme',
        text:
          '## Choose a sponsor theme\n\nA **sponsor theme** is the look of the app for one sponsor. Each sponsor theme sets the app\'s:\n\n- **title**,\n- **logo**,\n- **colours**,\n- **font**.\n\n' +
          'To change the logo, the title, the colours or the font, choose another sponsor theme: they come with the theme and cannot be changed one by one on a screen. ' +
          "A logo of your own needs a new theme, added to the app's code.",
        score: 9,
      },
    ];
    // The guide's weights: no passage says "put", few say "logo".
    const weights = new Map([['logo', 4.6], ['ap', 2.5], ['put', 4.6]]);
    const ranked = rankAnswerSentences('How do I put our own logo in the app?', guide, (stem) => weights.get(stem) ?? 1)?.candidates.map((candidate) => candidate.text) ?? [];
    expect(ranked.indexOf('logo,')).toBeGreaterThan(ranked.findIndex((text) => text.startsWith('To change the logo')));
  });

  it('answers what to do about a problem with the sentence after the one that names it, which tells what to do', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Troubleshooting common problems',
        text:
          '## "Cannot download CSV. Please try again later"\n\nThe query_logs.csv or dataset CSV download from the Logs tab did not succeed. Wait a moment and try again. If it still fails, tell your administrator.\n\n' +
          '## "You need to provide a command"\n\nYou sent an empty command to the general agent. Type your request and send it again.',
        score: 9,
      },
      { articleId: 2, title: 'Exporting logs', text: 'The CSV download of the Logs tab has one row per question.', score: 6 },
    ];
    const answer = (question: string) => composeExtractiveAnswer(question, guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text) ?? [];
    expect(answer("The CSV download isn't working, what should I do?")).toContain('Wait a moment and try again.');
    expect(answer('The CSV download failed, should I try later?')).toContain('Wait a moment and try again.');
  });

  it('answers a how-to question with the sentence that says how, not with the steps of another task led in by "To …:"', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Installing',
        text:
          '## Single sign-on\n\nTo set up single sign-on with OpenID Connect:\n\n1. Register the assistant with your provider.\n2. Set AUTH_ENABLED=true.\n3. Restart the product. ' +
          'The sign-in page then offers **Sign in with single sign-on**.',
        score: 9,
      },
      { articleId: 2, title: 'Signing in', text: 'To sign in (log in), open the app: the Sign in page offers **Sign in with single sign-on** where it is enabled.', score: 8 },
    ];
    const answer = (question: string) => composeExtractiveAnswer(question, guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text) ?? [];
    expect(answer('How do I sign in with single sign-on?')).toEqual(['To sign in (log in), open the app: the Sign in page offers Sign in with single sign-on where it is enabled.']);
    expect(answer('How do I set up single sign-on?')).toEqual(expect.arrayContaining(['Register the assistant with your provider.', 'Set AUTH_ENABLED=true.']));
  });

  it('answers whether someone can do something with the sentence that says who may, not with a step or a sentence that only shares its words', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to edit or delete an article',
        text:
          '### When to edit\n\n- A fact has changed.\n- Users found answers citing this article not helpful.\n\n' +
          '## Delete an article\n\n1. Find the article in the Articles table.\n2. Select **Delete**.',
        score: 9,
      },
      { articleId: 2, title: 'Roles', text: 'Users ask questions and give feedback. Users cannot add, edit or delete articles: that takes the editor or admin role.', score: 8 },
      { articleId: 3, title: 'API keys', text: 'To create an API key:\n\n1. Open **API keys**.\n2. Select **Create key**.\n\nOnly administrators can create API keys.', score: 7 },
    ];
    const answer = (question: string) => composeExtractiveAnswer(question, guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text) ?? [];
    expect(answer('Can a user delete articles?')).toEqual(['Users cannot add, edit or delete articles: that takes the editor or admin role.']);
    const createKey = answer('Can a user create an API key?');
    expect(createKey[0]).toBe('Only administrators can create API keys.');
    expect(createKey).not.toContain('Select Create key.');
    expect(answer('Who can create API keys?')).toEqual(['Only administrators can create API keys.']);
    // Asked how, by the asker, the steps are the answer.
    expect(answer('How do I create an API key?')).toEqual(expect.arrayContaining(['Open API keys.', 'Select Create key.']));
  });

  it('answers whether someone described in two words can do something with a sentence that names the doing, not one that shares a rarer word', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to upload files',
        text: 'If your knowledge already exists in documents, you do not need to retype it. To upload files, you need the editor or admin role.',
        score: 9.7,
      },
      { articleId: 2, title: 'How to use the general agent', text: 'The agent breaks a request into questions. It may take longer than a normal question, because it performs several searches.', score: 9.4 },
      { articleId: 3, title: 'Roles', text: '### editor\n\nEditors look after the content: articles and drafts.', score: 8.7 },
    ];
    // "normal" is rare in a guide where users and uploads are everywhere.
    const weights = new Map([['normal', 3], ['user', 0.8], ['upload', 1.2], ['file', 1]]);
    const answer = (question: string) => composeExtractiveAnswer(question, guide, (stem) => weights.get(stem) ?? 1)?.sentences.map((sentence) => sentence.text) ?? [];
    expect(answer('Can a normal user upload files?')[0]).toBe('To upload files, you need the editor or admin role.');
  });

  it('adds to a step only another step, and to any sentence only one that says more than the question\'s words and a pronoun', () => {
    // Whatever the scores allow (maxScoreGap 1).
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to install and run the product',
        text: '## Language model\n\nTo set up a language model, set LLM_BASE_URL to the address of an OpenAI-compatible service and LLM_API_KEY to its key, then restart the product.',
        score: 9,
      },
      { articleId: 2, title: 'Bot settings explained', text: '- **Prompt templates** – the instructions given to the language model.', score: 9 },
    ];
    const answer = (question: string, sources: AnswerSource[]) =>
      composeExtractiveAnswer(question, sources, weightsOf(sources), { maxScoreGap: 1 })?.sentences.map((sentence) => sentence.text) ?? [];
    expect(answer('How do I turn on the language model?', guide)).toEqual([
      'To set up a language model, set LLM_BASE_URL to the address of an OpenAI-compatible service and LLM_API_KEY to its key, then restart the product.',
    ]);
    // Another step joins a step.
    const steps: AnswerSource[] = [guide[0] as AnswerSource, { articleId: 2, title: 'Bot settings explained', text: 'To use the language model for agents too, choose it in llm_model.', score: 9 }];
    expect(answer('How do I turn on the language model?', steps)).toHaveLength(2);
    const settings: AnswerSource[] = [
      { articleId: 2, title: 'Bot settings explained', text: 'The bot description says what the assistant is for, in a sentence or two. The language model is given it.', score: 9 },
      { articleId: 3, title: 'Assistant', text: 'With every question, the language model receives the bot description and the prompt templates.', score: 9 },
    ];
    expect(answer('What does the language model receive with every question?', settings)).toEqual([
      'With every question, the language model receives the bot description and the prompt templates.',
    ]);
    // A sentence with one new word and no pronoun says it: "Exports are stored in the archive." (above).
  });

  it('answers from the section whose heading says the question, going on in its next sentence when the first is short', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Troubleshooting common problems and messages',
        text:
          '## A new article is not used in answers (does not show up)\n\nCheck that it was **published**. Articles added with the form, uploaded, crawled or imported from a video site are drafts until someone selects **Publish** in the Drafts view and the indexing job has finished.\n\n' +
          '## A source is marked as deleted\n\nThe article behind that source was deleted after the question was answered.',
        score: 9,
      },
      { articleId: 2, title: 'How to give feedback on an answer', text: 'Give feedback on good answers too, not only bad ones. It shows which articles are working well in answers.', score: 9.2 },
    ];
    expect(composeExtractiveAnswer('Why is my article not showing up in answers?', guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text)).toEqual([
      'Check that it was published.',
      'Articles added with the form, uploaded, crawled or imported from a video site are drafts until someone selects Publish in the Drafts view and the indexing job has finished.',
    ]);
  });

  it('answers a how-to with the one sentence that says how to do it, before steps of another task that only pass by it', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'How to add an article',
        text: '## Publish it\n\nA new article must be published before the assistant can use it:\n\n1. Open the **Drafts** view.\n2. Find your article and check it.\n3. Select **Publish**.\n\nAsk a question about it to check that it is found.',
        score: 9,
      },
      { articleId: 2, title: 'How to filter and sort the articles table', text: '## Find an article\n\nTo find an article, filter the **Articles** table by its title: choose "contains" on the title column.', score: 8.5 },
    ];
    const answer = (question: string, sources = guide) => composeExtractiveAnswer(question, sources, weightsOf(sources))?.sentences.map((sentence) => sentence.text) ?? [];
    expect(answer('How do I find an article?')).toEqual(['To find an article, filter the Articles table by its title: choose "contains" on the title column.']);
    // A sentence whose purpose is another action gets no instruction's bonus, and steps for another task under a title
    // that names the asked one are not its procedure.
    const sorting: AnswerSource[] = [
      { articleId: 2, title: 'How to filter and sort the articles table', text: '## Sort the table\n\nSelect a column heading to sort by that column.', score: 10 },
      {
        articleId: 2,
        title: 'How to filter and sort the articles table',
        text: '## Find an article\n\nTo find an article, filter the **Articles** table by its title:\n\n1. Select the **Articles** tab.\n2. Choose "contains" beside **Title** and type a word of the title.\n3. Select **Filter**.',
        score: 7,
      },
    ];
    expect(answer('How do I sort the articles table?', sorting)).toEqual(['Select a column heading to sort by that column.']);
  });

  it('answers a how-to with the one sentence that says how to do it and names what the steps of a like task leave out', () => {
    const guide: AnswerSource[] = [
      {
        articleId: 1,
        title: 'Organisations, groups and API keys',
        text: '### Create a group\n\nTo create a group:\n\n1. Open **Organisations** and select **Manage** beside the organisation.\n2. Under **Create a group**, enter the **Group name**.\n3. Select **Create group**.',
        score: 9,
      },
      { articleId: 2, title: 'Users and roles', text: 'Each group has a role. To add a user to a group, open **Users**, select the user and choose the group.', score: 8 },
    ];
    const answer = (question: string) => composeExtractiveAnswer(question, guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text) ?? [];
    // Creating is adding a group: the steps answer adding one, but not adding a user to one.
    expect(answer('How do I add a user to a group?')).toEqual(['To add a user to a group, open Users, select the user and choose the group.']);
    expect(answer('How do I add a group to an organisation?')[0]).toBe('To create a group:');
  });

  it('reads "a few seconds" as the quantity a "how long" question asks for', () => {
    const guide: AnswerSource[] = [
      { articleId: 1, title: 'How to review and publish drafts', text: 'Take a moment to read each draft before publishing. Publishing takes a few seconds for a handful of drafts.', score: 9 },
    ];
    expect(composeExtractiveAnswer('How long does it take to publish?', guide, weightsOf(guide))?.sentences.map((sentence) => sentence.text)).toEqual([
      'Publishing takes a few seconds for a handful of drafts.',
    ]);
  });
});

describe('run-on text (a transcript without punctuation)', () => {
  const transcript =
    '[0:00] welcome back to the garden today we are going to talk about tomatoes and how to keep them healthy through the summer so the first thing is watering you want to water deeply at the base of the plant not on the leaves and you want to do it twice a week more often when it is really hot and then mulch is important because it keeps the roots cool and it keeps the moisture in the soil and the third thing is pruning you take off the suckers that grow between the main stem and the branches so the plant puts its energy into the fruit and finally feeding once the first fruits set you can give them a tomato feed every two weeks and that is really all there is to it see you next time';
  const video: AnswerSource[] = [{ articleId: 40, title: 'Tomato care (video)', text: transcript }, ...otherArticles(41)];
  const weights = idfOf(video);

  it('quotes the part that answers, not the whole minute from its start', () => {
    const asked: [string, string[]][] = [
      ['How often should I water tomatoes?', ['water deeply', 'twice a week']],
      ['What are suckers?', ['suckers that grow between the main stem and the branches']],
      ['When should I feed tomatoes?', ['once the first fruits set', 'a tomato feed every two weeks']],
      ['Why mulch tomatoes?', ['mulch is important because it keeps the roots cool']],
    ];
    for (const [question, says] of asked) {
      const answer = composeExtractiveAnswer(question, [video[0] as AnswerSource], weights);
      const words = (answer?.text ?? '').replace(/\s*\[\d+\]/g, '').split(' ');
      for (const part of says) expect(answer?.text, question).toContain(part);
      expect(words.length, question).toBeLessThanOrEqual(40);
      // The transcript's own words, in order.
      for (const sentence of answer?.sentences ?? []) expect(transcript).toContain(sentence.text);
    }
  });

  it('cuts only sentences of 80 words or more, into overlapping windows of the words in order', () => {
    const short = { text: 'Water tomato plants deeply twice a week.', kind: 'text' as const, block: 0 };
    expect(cutRunOnSentence(short)).toEqual([short]);
    const windows = cutRunOnSentence({ text: transcript, kind: 'text', block: 3 }, 7);
    expect(windows.length).toBeGreaterThan(5);
    for (const window of windows) {
      expect(window.block).toBe(3);
      expect(window.window?.of).toBe(7);
      expect(transcript.split(' ').slice(window.window?.from, window.window?.to).join(' ')).toBe(window.text);
      expect(window.text.split(' ').length).toBeLessThanOrEqual(45);
    }
    // Every word is in some window, and windows overlap: each one starts inside the one before.
    expect(windows[0]?.window?.from).toBe(0);
    expect(windows.at(-1)?.window?.to).toBe(transcript.split(' ').length);
    for (let index = 1; index < windows.length; index++) expect(windows[index]?.window?.from).toBeLessThan(windows[index - 1]?.window?.to as number);
  });
});

describe('labelPatterns and namedLabel', () => {
  const said = (patterns: RegExp[], text: string) => patterns.filter((pattern) => pattern.test(text)).map((pattern) => pattern.source);
  it('reads a capitalised run of words with a word the search drops as a name on the screen, longest first, capital and all', () => {
    // "Who am I text" ends the question, "Who am I" comes before what it is ("text"); "Who am" ends nowhere.
    const patterns = labelPatterns('What is the Who am I text?');
    expect(patterns.map((pattern) => pattern.test('Who am I text'))).toEqual([true, true]);
    expect(said(patterns, 'Edit Who am I on the Settings tab.')).toHaveLength(1);
    expect(said(patterns, 'Edit who am I on the Settings tab.')).toHaveLength(0);
    expect(said(patterns, 'Edit Who am on the Settings tab.')).toHaveLength(0);
    expect(said(labelPatterns('What does Delete all do?'), 'Select **Delete all** to remove every draft.')).toEqual(['(?<![\\p{L}\\p{N}])Delete\\s+all(?![\\p{L}\\p{N}])']);
    expect(labelPatterns('Where do I find Delete all, and what does it do?')).toHaveLength(1);
    // Within a word, it is not said.
    expect(said(labelPatterns('What does Delete all do?'), 'Select Delete allowed drafts.')).toEqual([]);
  });

  it('finds none that the search reads more than one word of, that ends mid-question, or without a dropped word', () => {
    expect(labelPatterns('When did Tesla move to Prague?')).toEqual([]);
    expect(labelPatterns('Who was the Most Valuable Player of Super Bowl 50?')).toEqual([]);
    expect(labelPatterns('What year did Tesla die?')).toEqual([]);
    expect(labelPatterns('What does delete all do?')).toEqual([]);
    expect(labelPatterns('Who am I talking to?')).toEqual([]);
  });

  it('gives the longest name the sources say', () => {
    const sources = [{ text: 'Select Delete all.' }, { text: 'Nothing here.' }];
    expect(namedLabel('What does the Delete all button do?', sources)?.test('Delete all')).toBe(true);
    expect(namedLabel('What does the Delete all button do?', [{ text: 'Nothing here.' }])).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { ANSWER_TYPE_WORD_WEIGHT, isPairTerm, pairTerm, parseQuery } from './query';
import { setKnowledgeLanguage, tokenize } from './text';

describe('parseQuery', () => {
  it('reads questions by their first word or their question mark, and claims as not questions', () => {
    expect(parseQuery('Which NFL team won Super Bowl 50?').isQuestion).toBe(true);
    expect(parseQuery('how do I reset my password').isQuestion).toBe(true);
    expect(parseQuery('Is the library open on Sundays').isQuestion).toBe(true);
    expect(parseQuery('library card renewal?').isQuestion).toBe(true);
    expect(parseQuery('Vitamin D deficiency is associated with higher mortality.').isQuestion).toBe(false);
    expect(parseQuery('library card renewal').isQuestion).toBe(false);
    // A few words led by a task's verb ask how to do it.
    expect(parseQuery('upload files').isQuestion).toBe(true);
    expect(parseQuery('Reset password').isQuestion).toBe(true);
    expect(parseQuery('file upload').isQuestion).toBe(false);
  });

  it('weighs every distinct word of the query once, in order', () => {
    const query = parseQuery('Invoices and more invoices by email');
    expect([...query.terms]).toEqual([
      ['invoic', 1],
      ['email', 1],
    ]);
  });

  it('weighs an indefinite pronoun of a question less, as a request\'s verb: it stands for whatever a passage names', () => {
    expect([...parseQuery('How do I invite someone?').terms]).toEqual([
      ['invit', 1],
      ['someon', ANSWER_TYPE_WORD_WEIGHT],
    ]);
    expect(parseQuery('Can anybody read everything in the logs?').terms.get('log')).toBe(1);
    expect(parseQuery('Can anybody read everything in the logs?').terms.get('anybodi')).toBe(ANSWER_TYPE_WORD_WEIGHT);
    // Not in a claim, nor in a knowledge base in another language, whose words these are not.
    expect(parseQuery('Someone invited them').terms.get('someon')).toBe(1);
    setKnowledgeLanguage('fr');
    try {
      expect([...parseQuery('Comment inviter someone ?').terms.values()]).toEqual([1, 1]);
    } finally {
      setKnowledgeLanguage('en');
    }
  });

  it('weighs less the word that only names the kind of answer, and says which kind', () => {
    const howMany = parseQuery('How many teams have played in the Super Bowl eight times?');
    expect(howMany.terms.get('mani')).toBe(ANSWER_TYPE_WORD_WEIGHT);
    expect(ANSWER_TYPE_WORD_WEIGHT).toBeLessThan(1);
    expect([...howMany.terms].filter(([, weight]) => weight === 1).map(([term]) => term)).toEqual(tokenize('teams played Super Bowl eight times'));
    expect(howMany.answerType).toBe('number');
    expect(parseQuery('How many teams played?', { answerTypeWordWeight: 0 }).terms.has('mani')).toBe(false);

    const whatYear = parseQuery('In what year did the Black Death reach Europe?', { answerTypeWordWeight: 0 });
    expect(whatYear.terms.has('year')).toBe(false);
    expect(whatYear.answerType).toBe('year');

    expect(parseQuery('What is the name of the stadium?', { answerTypeWordWeight: 0 }).terms.has('name')).toBe(false);
    expect(parseQuery('Who designed the bridge?').answerType).toBe('person');
    expect(parseQuery('Where is the archive stored?').answerType).toBe('place');
    expect(parseQuery('When does the office open?').answerType).toBe('date');
    // A yes-or-no question asks for no time or place: its "when" or "where" joins a clause.
    expect(parseQuery('Will I get an email when new drafts are waiting for review?').answerType).toBeUndefined();
    expect(parseQuery('Can I see where a passage came from?').answerType).toBeUndefined();
    expect(parseQuery('What does AFC stand for?').answerType).toBeUndefined();
    expect(parseQuery('How often is the index rebuilt?').answerType).toBe('frequency');
    expect(parseQuery('How long are logs kept?').answerType).toBe('number');
  });

  it('reads a question about a bound as asking for a number, and keeps the bound as a search term', () => {
    const limit = parseQuery('What is the upload limit?');
    expect(limit.answerType).toBe('number');
    expect(limit.terms.get('limit')).toBe(1);
    expect(parseQuery("What's the maximum file size?").answerType).toBe('number');
    expect(parseQuery('Which limits apply to uploads?').answerType).toBe('number');
    expect(parseQuery('What is a limitation of the crawler?').answerType).toBeUndefined();
    expect(parseQuery('Why is there an upload limit?').answerType).toBeUndefined();
  });

  it('searches what a "how large" or "how far" question measures beside the word that asks it', () => {
    const howLarge = parseQuery('How large can an uploaded file be?');
    expect(howLarge.terms.get('larg')).toBe(ANSWER_TYPE_WORD_WEIGHT);
    expect(howLarge.terms.get('size')).toBe(ANSWER_TYPE_WORD_WEIGHT);
    expect(parseQuery('How far is the station?').terms.get('distanc')).toBe(ANSWER_TYPE_WORD_WEIGHT);
    expect(parseQuery('How many files?').terms.has('size')).toBe(false);
    // Its own weight: the answer's sentences are chosen with the asking word at 0 and the measure kept.
    const sentences = parseQuery('How large can an uploaded file be?', { answerTypeWordWeight: 0, quantityDimensionWeight: 0.3 });
    expect(sentences.terms.has('larg')).toBe(false);
    expect(sentences.terms.get('size')).toBe(0.3);
  });

  it('reads a superlative with a modal after it as a bound: a number, and the limit it measures', () => {
    const biggest = parseQuery("What's the biggest file I can upload?");
    expect(biggest.answerType).toBe('number');
    expect(biggest.terms.get('size')).toBe(ANSWER_TYPE_WORD_WEIGHT);
    expect(biggest.terms.get('limit')).toBe(ANSWER_TYPE_WORD_WEIGHT);
    expect(biggest.measures?.has('limit')).toBe(true);
    // Without the modal it asks for a thing, not a bound.
    const largest = parseQuery('What is the largest city in Poland?');
    expect(largest.answerType).toBeUndefined();
    expect(largest.terms.has('limit')).toBe(false);
  });

  it('weighs less the verbs that frame a question\'s request, and keeps their pairs', () => {
    const query = parseQuery('How do I get a library card?');
    expect(query.terms.get('get')).toBe(ANSWER_TYPE_WORD_WEIGHT);
    expect(query.terms.get('librari')).toBe(1);
    expect(query.pairs).toContain(pairTerm('get', 'librari'));
    expect(parseQuery('How do I get a library card?', { requestVerbWeight: 0 }).terms.has('get')).toBe(false);
    // Not in a statement.
    expect(parseQuery('Members get a library card.').terms.get('get')).toBe(1);
  });

  it('searches no verb that only says something is there ("Which roles exist?"), unless it is all the question has', () => {
    const query = parseQuery('Which roles exist?');
    expect([...query.terms.keys()]).toEqual(['role']);
    expect(query.pairs).toEqual([]);
    expect(parseQuery('Roles exist for every team.').terms.has('exist')).toBe(true);
    expect([...parseQuery('Does it exist?').terms.keys()]).toEqual(['exist']);
  });

  it('keeps those words in a claim, and weighs them when asked to', () => {
    expect(parseQuery('Many patients improve within a year.').terms.get('year')).toBe(1);
    expect(parseQuery('What year was it founded?', { answerTypeWordWeight: 0.3 }).terms.get('year')).toBe(0.3);
  });

  it('gives the adjacent word pairs, each once, across stopwords but not across a left-out word', () => {
    const query = parseQuery('Who is the quarterback for the Carolina Panthers?');
    expect(query.pairs).toEqual([pairTerm('quarterback', 'carolina'), pairTerm('carolina', 'panther')]);
    expect(parseQuery('How many Super Bowl titles?').pairs).toEqual([pairTerm('super', 'bowl'), pairTerm('bowl', 'titl')]);
    expect(isPairTerm(pairTerm('super', 'bowl'))).toBe(true);
    expect(isPairTerm('bowl')).toBe(false);
  });

  it('ignores e-mail and web addresses written into a question', () => {
    const query = parseQuery('My email is x@y.z, how do I get a library card?');
    expect([...query.terms.keys()]).toEqual(tokenize('email get library card'));
    expect(query.isQuestion).toBe(true);
    expect([...parseQuery('Read https://example.org/help and www.example.org about invoices').terms.keys()]).toEqual(tokenize('read invoices'));
  });

  it('finds nothing to search in a query made only of stopwords', () => {
    const query = parseQuery('What is it?');
    expect(query.terms.size).toBe(0);
    expect(query.pairs).toEqual([]);
  });
});

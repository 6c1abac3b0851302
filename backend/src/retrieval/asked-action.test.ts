import { describe, expect, it } from 'vitest';
import { actionStems, actionWordings, activeHowTo, askedAbility, askedAction, askedPhrasalVerb, isActionStem, plainAction, withActionWord } from './asked-action';

describe('the action a question asks about', () => {
  it('is the verb of a how-to or can-I question, as a stem, unless it says little', () => {
    expect(askedAction('How do I restore a deleted article?')).toBe('restor');
    expect(askedAction('Can I delete an account?')).toBe('delet');
    expect(askedAction('Is it possible to export the logs?')).toBe('export');
    // A light verb, a phrasal verb, no action asked.
    expect(askedAction('How do I get a library card?')).toBeUndefined();
    expect(askedAction('How do I turn off the firewall?')).toBeUndefined();
    expect(askedAction('What is a draft?')).toBeUndefined();
  });

  it('does the same as the other verbs of its group', () => {
    expect([...actionStems('creat')].sort()).toEqual(['ad', 'creat']);
    expect([...actionStems('restor')]).toEqual(['restor']);
    expect(actionStems(undefined).size).toBe(0);
    expect(isActionStem('delet')).toBe(true);
    expect(isActionStem('publish')).toBe(false);
  });

  it('is said plainly: making a new one is creating one, and what is created is new', () => {
    expect(plainAction('How do I make a new article?')).toBe('How do I create a article?');
    expect(plainAction('How do I add a new user?')).toBe('How do I add a user?');
    expect(plainAction('How do I get rid of all my drafts?')).toBe('How do I remove all my drafts?');
    expect(plainAction('Can I throw away a draft?')).toBe('Can I remove a draft?');
    expect(plainAction('Can I get back an article I deleted?')).toBe('Can I restore an article I deleted?');
    expect(plainAction('How do I bring back a deleted draft?')).toBe('How do I restore a deleted draft?');
    expect(plainAction('How do I get a library card?')).toBe('How do I get a library card?');
    expect(plainAction('How can I create new templates?')).toBe('How can I create templates?');
    // Not created: "new" says something.
    expect(plainAction('How do I publish a new article?')).toBe('How do I publish a new article?');
    expect(plainAction('How do I make the answer shorter?')).toBe('How do I make the answer shorter?');
    expect(askedAction(plainAction('How do I make a new article?'))).toBe('creat');
  });

  it('is asked in each wording that does the same, the plain one first', () => {
    expect(actionWordings('How do I create an article?')).toEqual(['How do I create an article?', 'How do I add an article?']);
    expect(actionWordings('Can I remove a user?').slice(1).sort()).toEqual(['Can I delete a user?', 'Can I erase a user?']);
    expect(actionWordings('How do I make a new article?')).toEqual(['How do I create a article?', 'How do I add a article?']);
    expect(actionWordings('How do I log out?')).toEqual(['How do I log out?', 'How do I sign out?', 'How do I log off?']);
    expect(withActionWord('How do I Update a draft?', 'edit')).toBe('How do I edit a draft?');
    for (const question of ['How do I restore a deleted article?', 'Who can create templates?', 'Create a template']) expect(actionWordings(question)).toEqual([question]);
  });

  it('is asked of the subject of a how-question in the passive', () => {
    expect(activeHowTo('How are drafts published?')).toBe('How do I published drafts?');
    expect(askedAction(activeHowTo('How are drafts published?'))).toBe('publish');
    expect(activeHowTo('How can a user be added to a group?')).toBe('How do I added a user to a group?');
    expect(activeHowTo('How does a draft get published?')).toBe('How do I published a draft?');
    expect(activeHowTo('How are articles split into chunks?')).toBe('How do I split articles into chunks?');
    expect(activeHowTo('How is the time needed to solve a problem calculated?')).toBe('How do I calculated the time needed to solve a problem?');
    // Not a passive how-question, a pronoun for a subject, or asked in the past: as asked.
    for (const question of ['How is the weather?', 'How big are files?', 'How many articles are there?', 'How do I add an article?', 'How can I be notified?', 'How is it called?', 'How was the fate of Luther decided?', 'How is the need for speed?']) {
      expect(activeHowTo(question), question).toBe(question);
    }
  });

  it('may be a phrasal verb, said in any of the phrasal verbs that do the same', () => {
    const logOut = askedPhrasalVerb('How do I log out?');
    expect(['to sign out, select sign out.', 'after logging out', 'log-out'].map((text) => logOut?.says.test(text))).toEqual([true, true, true]);
    expect(['select the logs tab.', 'sign in first.'].map((text) => logOut?.says.test(text))).toEqual([false, false]);
    expect(askedPhrasalVerb('How do I turn off the firewall?')?.says.test('turning off the firewall')).toBe(true);
    expect(askedPhrasalVerb('How do I publish a draft?')).toBeUndefined();
  });
});

describe('what a question asks whether someone can do', () => {
  it('reads the verb after a subject of one word, or of two when the second is followed by an action', () => {
    expect(askedAbility('Can a user delete articles?')).toBe('delet');
    expect(askedAbility('Can editors publish drafts?')).toBe('publish');
    expect(askedAbility('Who can create organisations?')).toBe('creat');
    expect(askedAbility('Can a normal user upload files?')).toBe('upload');
    expect(askedAbility('Can any plain editor delete drafts?')).toBe('delet');
    expect(askedAbility('Who is allowed to create corrections?')).toBe('creat');
    expect(askedAbility('Are editors permitted to publish drafts?')).toBe('publish');
  });
});

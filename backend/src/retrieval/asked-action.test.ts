import { describe, expect, it } from 'vitest';
import { actionStems, askedAction, sameActionWordings, withActionWord } from './asked-action';

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
  });

  it('is asked again with each verb that does the same, and only then', () => {
    expect(sameActionWordings('How do I create an article?')).toEqual(['How do I add an article?']);
    expect(sameActionWordings('Can I remove a user?').sort()).toEqual(['Can I delete a user?', 'Can I erase a user?']);
    expect(withActionWord('How do I Update a draft?', 'edit')).toBe('How do I edit a draft?');
    expect(sameActionWordings('How do I restore a deleted article?')).toEqual([]);
    expect(sameActionWordings('Who can create templates?')).toEqual([]);
    expect(sameActionWordings('Create a template')).toEqual([]);
  });
});

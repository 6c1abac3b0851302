import { describe, expect, it } from 'vitest'
import { namedObject, readConversation, resolveFollowUp } from './follow-up'

describe('a follow-up that acts on a pronoun', () => {
  it('reads the pronoun as what the earlier question acted on', () => {
    expect(resolveFollowUp('And how do I disable one?', ['How do I add a user?'])).toBe('And how do I disable a user?')
    expect(resolveFollowUp('Can I delete it?', ['How do I create an API key for a partner?'])).toBe('Can I delete an API key?')
    expect(resolveFollowUp('how can I turn it off?', ['How do I set up the semantic firewall?'])).toBe('how can I turn the semantic firewall off?')
    expect(resolveFollowUp('How do I publish it?', ['What is a draft?'])).toBe('How do I publish a draft?')
    expect(resolveFollowUp('Is it possible to rename them?', ['What are API keys for?'])).toBe('Is it possible to rename API keys?')
  })

  it('takes the latest earlier question that names something, through earlier follow-ups', () => {
    expect(resolveFollowUp('And how do I delete it?', ['How do I add an article?', 'How long does that take?'])).toBe('And how do I delete an article?')
    expect(resolveFollowUp('Can I restore it?', ['How do I add an article?', 'And how do I delete one?'])).toBe('Can I restore an article?')
    expect(resolveFollowUp('How do I edit it?', ['How do I add an article?', 'How do I add a user?'])).toBe('How do I edit a user?')
  })

  it('leaves a question alone that names what it acts on, asks no action, or follows nothing it could stand for', () => {
    expect(resolveFollowUp('How do I disable a shortcut?', ['How do I add a user?'])).toBe('How do I disable a shortcut?')
    expect(resolveFollowUp('How long does it take?', ['How do I renew my passport?'])).toBe('How long does it take?')
    expect(resolveFollowUp('And how do I disable one?', [])).toBe('And how do I disable one?')
    expect(resolveFollowUp('And how do I disable one?', ['Why is the answer slow?'])).toBe('And how do I disable one?')
    // "one of …" and "it …ing" name or ask something else.
    expect(resolveFollowUp('How do I disable one of the shortcuts?', ['How do I add a user?'])).toBe('How do I disable one of the shortcuts?')
  })
})

describe('a follow-up that asks about a pronoun or about something else instead', () => {
  it('reads a pronoun asked about, or after who can, as what the earlier question named', () => {
    expect(resolveFollowUp('What is it for?', ['How do I create an API key?'])).toBe('What is an API key for?')
    expect(resolveFollowUp('And what does it do?', ['What is the semantic firewall?'])).toBe('And what does the semantic firewall do?')
    expect(resolveFollowUp('Who can delete them?', ['What are API keys for?'])).toBe('Who can delete API keys?')
  })

  it('asks the earlier question again about what the follow-up names instead', () => {
    expect(resolveFollowUp('What about an organisation?', ['How do I add a user?'])).toBe('How do I add an organisation?')
    expect(resolveFollowUp('And for templates?', ['How do I delete a draft?'])).toBe('How do I delete templates?')
    expect(resolveFollowUp('And an API key?', ['What is a draft?'])).toBe('What is an API key?')
    // Through a follow-up: the organisation is what "it" stands for next.
    expect(resolveFollowUp('How do I delete it?', ['How do I add a user?', 'What about an organisation?'])).toBe('How do I delete an organisation?')
  })

  it('leaves alone a follow-up that asks its own question, names only a pronoun, or follows nothing named', () => {
    expect(resolveFollowUp('And how do I delete a template?', ['How do I add a user?'])).toBe('And how do I delete a template?')
    expect(resolveFollowUp('And why?', ['How do I add a user?'])).toBe('And why?')
    expect(resolveFollowUp('And then?', ['How do I add a user?'])).toBe('And then?')
    expect(resolveFollowUp('What about it?', ['How do I add a user?'])).toBe('What about it?')
    expect(resolveFollowUp('What about an organisation?', ['Why is the answer slow?'])).toBe('What about an organisation?')
    expect(resolveFollowUp('What about an organisation?', [])).toBe('What about an organisation?')
    expect(resolveFollowUp('What is it like to work with the whole product team every day?', ['What is a draft?'])).toBe('What is it like to work with the whole product team every day?')
  })
})

describe('a follow-up placed after the earlier turn, or whose action names nothing', () => {
  it('leaves out the words that only place it after the earlier turn, and reads its pronoun', () => {
    expect(resolveFollowUp('And how do I edit it afterwards?', ['How do I add an article?'])).toBe('And how do I edit an article?')
    expect(resolveFollowUp('Afterwards, can I change it?', ['How do I add an article?'])).toBe('Can I change an article?')
    expect(resolveFollowUp('And then how do I publish them?', ['What is a draft?'])).toBe('And how do I publish a draft?')
    expect(resolveFollowUp('How do I disable one later on?', ['How do I add a user?'])).toBe('How do I disable a user?')
    expect(resolveFollowUp('Can I delete it as well?', ['How do I create a template?'])).toBe('Can I delete a template?')
    expect(resolveFollowUp('What do I do next?', ['How do I add an article?'])).toBe('What do I do?')
  })

  it('reads an action asked with nothing to act on as acting on what the earlier question named', () => {
    expect(resolveFollowUp('Who can publish?', ['What is a draft?'])).toBe('Who can publish a draft?')
    expect(resolveFollowUp('And how do I edit afterwards?', ['How do I add an article?'])).toBe('And how do I edit an article?')
    // A verb that needs no object, or a phrasal verb, is whole.
    expect(resolveFollowUp('How do I start?', ['How do I add an article?'])).toBe('How do I start?')
    expect(resolveFollowUp('How do I sign in?', ['How do I add a user?'])).toBe('How do I sign in?')
  })

  it('leaves alone a follow-up that names its own subject, or is nothing but such words, and a question asked alone', () => {
    expect(resolveFollowUp('And what is an API key?', ['How do I add an article?'])).toBe('And what is an API key?')
    expect(resolveFollowUp('And how do I delete a template afterwards?', ['How do I add a user?'])).toBe('And how do I delete a template?')
    expect(resolveFollowUp('And afterwards?', ['How do I add a user?'])).toBe('And afterwards?')
    expect(resolveFollowUp('What about later?', ['How do I add a user?'])).toBe('What about later?')
    expect(resolveFollowUp('And then?', ['How do I add a user?'])).toBe('And then?')
    expect(resolveFollowUp('How do I edit an article afterwards?', [])).toBe('How do I edit an article afterwards?')
    expect(resolveFollowUp('Can I see the next page?', ['How do I add a user?'])).toBe('Can I see the next page?')
  })

  it('gives search the earlier questions as each was read in its turn', () => {
    expect(readConversation('Who can see it?', ['How do I add an article?', 'And how do I edit it afterwards?'])).toEqual({
      question: 'Who can see an article?',
      earlierQuestions: ['How do I add an article?', 'And how do I edit an article?'],
    })
    expect(readConversation('How do I edit an article afterwards?', [])).toEqual({ question: 'How do I edit an article afterwards?', earlierQuestions: [] })
  })
})

describe('what a question names', () => {
  it('is the object of its action, up to a preposition or a clause, or what it asks about', () => {
    expect(namedObject('How do I add a user to a group?')).toBe('a user')
    expect(namedObject('How can I export the query logs as CSV?')).toBe('the query logs')
    expect(namedObject('What is a draft?')).toBe('a draft')
    expect(namedObject('How do I do it?')).toBeUndefined()
    expect(namedObject('Why is the answer slow?')).toBeUndefined()
    expect(namedObject('How do I make sure that every answer quotes the newest version of the article?')).toBeUndefined()
  })
})

describe('a question with long runs of spaces or line breaks', () => {
  it('is read as the question with one space between its words, at once', () => {
    const spaced = `What is the difference between${' '.repeat(3900)}a draft and an article?`
    expect(readConversation(spaced, ['How do I add a user?'])).toEqual(readConversation('What is the difference between a draft and an article?', ['How do I add a user?']))
    expect(namedObject(`How do I add${'\t \n'.repeat(1300)}a user?`)).toBe('a user')
  })
})


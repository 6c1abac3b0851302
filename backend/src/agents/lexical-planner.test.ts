import { describe, expect, it } from 'vitest'
import { borrowedWords, chooseToolCalls, LexicalPlanner, namedSubjectOf, splitCommand, subjectOf } from './lexical-planner'
import type { AgentTool } from './tools/agent-tool'
import { createArithmeticTool } from './tools/arithmetic-tool'
import { createArticleLookupTool } from './tools/article-lookup-tool'
import { createDateTimeTool } from './tools/date-time-tool'
import { createKnowledgeSearchTool } from './tools/knowledge-search-tool'

const noSearch = { retrieve: async () => [] }
const TOOLS: AgentTool[] = [createKnowledgeSearchTool(noSearch), createArticleLookupTool(async () => []), createDateTimeTool(), createArithmeticTool()]
const isFactQuestion = (text: string) => TOOLS.some((tool) => tool.kind === 'fact' && tool.inputFor(text) !== undefined)

describe('splitCommand', () => {
  it('splits at a conjunction that starts another question', () => {
    expect(splitCommand('How do I add an article and what does the semantic firewall do?')).toEqual(['How do I add an article', 'what does the semantic firewall do?'])
  })

  it('asks the same action again of an object after "and then" ("… and then a group in it")', () => {
    expect(splitCommand('How do I add an organisation and then a group in it?')).toEqual(['How do I add an organisation', 'How do I add a group in it?'])
    expect(splitCommand('how to create a template, and then the sections')).toEqual(['how to create a template', 'how to create the sections'])
    // Not after a plain "and", nor when what follows is not an object alone.
    expect(splitCommand('How do I add a title and a description?')).toEqual(['How do I add a title and a description?'])
    expect(splitCommand('How do I add an organisation and then invite people?')).toEqual(['How do I add an organisation', 'invite people?'])
  })

  it('splits at question marks and sentence ends', () => {
    expect(splitCommand('How do drafts work? Where are logs kept. Explain roles')).toEqual(['How do drafts work?', 'Where are logs kept.', 'Explain roles'])
  })

  it('splits two clauses with at least two searchable words each', () => {
    expect(splitCommand('explain publishing drafts and crawling web sites')).toEqual(['explain publishing drafts', 'crawling web sites'])
  })

  it('splits a how-to question at an action on what it names, which asks how too', () => {
    expect(splitCommand('How do I create a template and use it?')).toEqual(['How do I create a template', 'How do I use it?'])
    expect(splitCommand('How can I upload files and publish them?')).toEqual(['How can I upload files', 'How can I publish them?'])
    // Not after a clause of one word, nor after what is no how-to question.
    expect(splitCommand('How do I find and use it?')).toEqual(['How do I find and use it?'])
    expect(splitCommand('Explain drafts and publish them')).toEqual(['Explain drafts and publish them'])
  })

  it('keeps a conjunction that only joins words of one question', () => {
    expect(splitCommand('Compare drafts and articles')).toEqual(['Compare drafts and articles'])
    expect(splitCommand('What are search types and thresholds?')).toEqual(['What are search types and thresholds?'])
  })

  it('splits at semicolons and "as well as"', () => {
    expect(splitCommand('list the roles; describe the groups as well as what organisations do')).toEqual([
      'list the roles',
      'describe the groups',
      'what organisations do',
    ])
  })

  it('keeps a question a fact tool answers apart, even when it is short', () => {
    expect(splitCommand('What is 1/0 and how do I add an article?', isFactQuestion)).toEqual(['What is 1/0', 'how do I add an article?'])
    expect(splitCommand('how do I publish drafts and 3*3', isFactQuestion)).toEqual(['how do I publish drafts', '3*3'])
  })

  it('keeps questions with the same searchable words once', () => {
    expect(splitCommand('How do I add an article? How do I add articles? How to add an article!')).toEqual(['How do I add an article?'])
  })

  it('drops clauses without a searchable word, and falls back to the whole command', () => {
    expect(splitCommand('How do I add an article and what?')).toEqual(['How do I add an article', ])
    expect(splitCommand('Why?')).toEqual(['Why?'])
  })
})

describe('subjectOf', () => {
  it('drops the directive that asks for a document', () => {
    expect(subjectOf('Write a briefing on the semantic firewall')).toBe('the semantic firewall')
    expect(subjectOf('Please prepare a short note about publishing drafts.')).toBe('publishing drafts.')
  })

  it('keeps a command that names no document', () => {
    expect(subjectOf('The semantic firewall')).toBe('The semantic firewall')
    expect(subjectOf('Write about')).toBe('Write about')
  })
})

describe('namedSubjectOf', () => {
  it('finds no subject in a command that only asks for a text', () => {
    for (const command of ['Write me a brief', 'Summarise please', 'Draft a report', 'Brief me.', 'Could you prepare a short note for us?', 'A summary, please', 'Tell me more', 'Go on.', 'More details please', 'Explain', 'Can you tell me something?'])
      expect(namedSubjectOf(command), command).toBeNull()
  })

  it('reads the subject a command names, as subjectOf does', () => {
    expect(namedSubjectOf('Write a briefing on the semantic firewall')).toBe('the semantic firewall')
    expect(namedSubjectOf('Summarise the drafts')).toBe('the drafts')
    expect(namedSubjectOf('Make a summary of query logs')).toBe('Make a summary of query logs')
    expect(namedSubjectOf('The semantic firewall')).toBe('The semantic firewall')
    expect(namedSubjectOf('Tell me more about drafts')).not.toBeNull()
    expect(namedSubjectOf('Explain the semantic firewall')).not.toBeNull()
    expect(namedSubjectOf('Tell me how to publish drafts')).not.toBeNull()
  })
})

describe('chooseToolCalls', () => {
  it('answers a sum or the date with the fact tool alone', () => {
    expect(chooseToolCalls('What is 2 + 3?', 'What is 2 + 3?', TOOLS)).toEqual([{ tool: 'arithmetic', input: '2 + 3' }])
    expect(chooseToolCalls('what time is it', 'what time is it', TOOLS)).toEqual([{ tool: 'date_time', input: 'now' }])
  })

  it('looks up an article named in quotes before searching broadly', () => {
    const question = 'What does “How to add an article” say about titles?'
    expect(chooseToolCalls(question, question, TOOLS)).toEqual([
      { tool: 'article_lookup', input: 'How to add an article' },
      { tool: 'knowledge_search', input: question },
    ])
  })

  it('uses only the tools it is given', () => {
    expect(chooseToolCalls('What is 2 + 3?', 'What is 2 + 3?', TOOLS.filter((tool) => tool.name === 'knowledge_search'))).toEqual([
      { tool: 'knowledge_search', input: 'What is 2 + 3?' },
    ])
    expect(chooseToolCalls('How do I add an article?', 'How do I add an article?', [])).toEqual([])
  })
})

describe('LexicalPlanner', () => {
  const planner = new LexicalPlanner()

  it('plans each question with its tool calls, and searches a pronoun with the words it refers to', async () => {
    const plan = await planner.planCommand('What is the semantic firewall and how do I turn it on?', TOOLS)
    expect(plan.map((question) => question.text)).toEqual(['What is the semantic firewall', 'how do I turn it on?'])
    expect(plan[1].query).toBe('how do I turn it on? semantic firewall')
    expect(plan[1].toolCalls).toEqual([{ tool: 'knowledge_search', input: 'how do I turn it on? semantic firewall' }])
    expect(plan.every((question) => question.section === null && question.grade === null && !question.isSettled)).toBe(true)
  })

  it('asks "each one" of every part before it, one part each, and reads "both" of one part as leaning on it', async () => {
    const plan = await planner.planCommand('Explain uploading files and crawling a web site, and list what each one needs', TOOLS)
    expect(plan.map((question) => question.text)).toEqual([
      'Explain uploading files',
      'crawling a web site',
      'list what uploading files needs',
      'list what crawling a web site needs',
    ])
    expect(plan.map((question) => question.query)).toEqual(['uploading files', 'crawling a web site', 'what uploading files needs', 'what crawling a web site needs'])
    const steps = await planner.planCommand('Compare the steps for uploading files and crawling a web site, and say which role both of them need.', TOOLS)
    expect(steps.slice(2).map((question) => question.text)).toEqual(['say which role uploading files need.', 'say which role crawling a web site need.'])
    // One part before: "each one" leans on it.
    const one = await planner.planCommand('Explain the crawler, and list what each one skips', TOOLS)
    expect(one[1].query).toBe('what each one skips crawler')
    // "both crawls and uploads" names its two things: nothing to distribute.
    const both = await planner.planCommand('What does the crawler skip, and which role may run both crawls and uploads?', TOOLS)
    expect(both.map((question) => question.text)).toEqual(['What does the crawler skip', 'which role may run both crawls and uploads?'])
    expect(both[1].query).toBe('which role may run both crawls and uploads? crawler skip')
  })

  it('searches an action on what a how-to part names with what it names, not with that part\'s action', async () => {
    const plan = await planner.planCommand('How do I create a template and use it?', TOOLS)
    expect(plan[1].query).toBe('How do I use it? template')
  })

  it('gives the words a part borrows from the one it leans on, to compose it with', async () => {
    const plan = await planner.planCommand('How do I upload files and how large can they be?', TOOLS)
    expect(plan.map(borrowedWords)).toEqual(['', 'upload files'])
  })

  it('asks the steps for each object a command joins with "and", not for a new subject', () => {
    expect(splitCommand('Compare the steps for uploading files and crawling a web site')).toEqual([
      'Compare the steps for uploading files',
      'Compare the steps for crawling a web site',
    ])
    expect(splitCommand('Show the steps for uploading files and the roles of editors')).toEqual(['Show the steps for uploading files', 'the roles of editors'])
  })

  it('plans one question per template section, about the command’s subject', async () => {
    const plan = await planner.planSections('Write a briefing on the semantic firewall', [
      { title: 'Summary', instructions: 'The answer to the command in three sentences.' },
      { title: 'Date', instructions: '' },
      { title: 'When to use it', instructions: 'The cases the sources name.' },
    ], TOOLS)
    expect(plan.map((question) => [question.text, question.section])).toEqual([['Summary', 0], ['Date', 1], ['When to use it', 2]])
    // A section about the whole subject searches for the subject: its words only say how to write.
    expect(plan[0].toolCalls).toEqual([{ tool: 'knowledge_search', input: 'the semantic firewall' }])
    expect(plan[1].toolCalls).toEqual([{ tool: 'date_time', input: 'now' }])
    // A section about an aspect of it searches for both.
    expect(plan[2].toolCalls).toEqual([{ tool: 'knowledge_search', input: 'the semantic firewall\nWhen to use it\nThe cases the sources name.' }])
  })

  it('widens only the unsettled questions, searching their missing words on their own', async () => {
    const [settled, weak] = await planner.planCommand('How do I add an article? Explain the zyxwv setting', TOOLS)
    const widened = await planner.widen([{ ...settled, isSettled: true }, { ...weak, missingWords: ['zyxwv'] }], TOOLS)
    expect(widened[0].toolCalls).toEqual([])
    expect(widened[1].toolCalls).toEqual([
      { tool: 'knowledge_search', input: 'the zyxwv setting' },
      { tool: 'knowledge_search', input: 'zyxwv' },
    ])
  })
})

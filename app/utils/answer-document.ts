import type { AskAnswer } from '../../contracts/ask'

type DocumentAnswer = Pick<AskAnswer, 'command' | 'result' | 'source_list' | 'related_list'>

/**
 * The Markdown of an answer's Word download (answer.docx): the question as its title, the answer, then what Ask shows
 * under it: the articles that may help (a not-found answer's near misses, by title) and the sources, numbered.
 */
export function answerDocumentMarkdown(answer: DocumentAnswer): string {
  const list = (titles: string[]) => titles.map((title, index) => `${index + 1}. ${title}`).join('\n')
  const related = list((answer.related_list ?? []).map((article) => article.title))
  const sources = list(answer.source_list.map((source) => source.metadata.title))
  return [
    `# ${answer.command ?? 'Answer'}\n\n${answer.result ?? ''}\n`,
    related ? `\n## Articles that may help\n\n${related}\n` : '',
    sources ? `\n## Sources\n\n${sources}\n` : '',
  ].join('')
}

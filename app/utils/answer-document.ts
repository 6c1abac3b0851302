import type { AskAnswer } from '../../contracts/ask'

type DocumentAnswer = Pick<AskAnswer, 'command' | 'result' | 'source_list' | 'related_list'>

/**
 * Text that is not Markdown (a question as typed, an article's title) written so that Markdown reads it as it is: each
 * ASCII punctuation character escaped (a question about `<b>` or `*args` keeps them), line breaks as spaces (a title is
 * one line).
 */
export function markdownText(text: string): string {
  return text
    .trim()
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '\\$&')
}

/**
 * The Markdown of an answer's Word download (answer.docx): the question as its title, the answer, then what Ask shows
 * under it: the articles that may help (a not-found answer's near misses, by title) and the sources, numbered.
 */
export function answerDocumentMarkdown(answer: DocumentAnswer): string {
  const list = (titles: string[]) => titles.map((title, index) => `${index + 1}. ${title}`).join('\n')
  const related = list((answer.related_list ?? []).map((article) => markdownText(article.title)))
  const sources = list(answer.source_list.map((source) => markdownText(source.metadata.title)))
  return [
    `# ${answer.command?.trim() ? markdownText(answer.command) : 'Answer'}\n\n${answer.result ?? ''}\n`,
    related ? `\n## Articles that may help\n\n${related}\n` : '',
    sources ? `\n## Sources\n\n${sources}\n` : '',
  ].join('')
}

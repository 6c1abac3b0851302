import { toMarkdownDocument } from './markdown-document'
import { MarkdownView, type MarkdownViewProps } from './markdown-view'

export type { CitationTarget } from './markdown-view'

/**
 * Markdown text rendered as elements (see MarkdownView), parsed where the component renders: on the server for the
 * first page, in the browser after a client-side navigation. A page with a script budget (Ask) gets the parsed
 * document from its loader and uses MarkdownView instead, so the parser stays on the server.
 */
export function Markdown({ source, ...props }: Omit<MarkdownViewProps, 'document'> & { source: string }) {
  return <MarkdownView document={toMarkdownDocument(source)} {...props} />
}

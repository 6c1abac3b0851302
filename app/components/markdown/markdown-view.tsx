import { Fragment, createElement, type ReactNode } from 'react'
import type { MarkdownDocument, MarkdownNode } from './markdown-document'
import * as styles from './markdown.css'
import { safeHref } from './markdown-text'

/** Where an answer's "[n]" points: the n-th source's address and, optionally, its title (shown on hover). */
export interface CitationTarget {
  href: string
  title?: string
}

export interface MarkdownViewProps {
  /** Markdown parsed by toMarkdownDocument, on the server or in the component (see markdown.tsx). */
  document: MarkdownDocument
  /** The heading level a "#" heading becomes, so the text fits under the page's own headings (default 2). */
  headingLevel?: number
  /** Turns "[n]" in the text into a link to the n-th source; without it (or when it gives nothing) "[n]" stays text. */
  citation?: (n: number) => CitationTarget | undefined
  className?: string
  id?: string
}

const CITATION = /\[(\d{1,3})\]/g

/**
 * A MarkdownDocument as React elements, never as an HTML string: text goes through React's escaping and only the
 * document's few kinds of element exist. This module does not import the parser, so a page that receives the
 * document from its loader ships no Markdown code to the browser.
 */
export function MarkdownView({ document, headingLevel = 2, citation, className, id }: MarkdownViewProps) {
  const context: Context = { headingLevel: Math.min(Math.max(Math.trunc(headingLevel), 1), 6), citation, isInLink: false }
  return (
    <div id={id} className={className ? `${styles.markdown} ${className}` : styles.markdown}>
      {renderNodes(document.children, context)}
    </div>
  )
}

interface Context {
  headingLevel: number
  citation: MarkdownViewProps['citation']
  isInLink: boolean
}

function renderNodes(nodes: MarkdownNode[], context: Context): ReactNode[] {
  return nodes.map((node, key) => renderNode(node, key, context))
}

function renderNode(node: MarkdownNode, key: number, context: Context): ReactNode {
  if (typeof node === 'string') return <Fragment key={key}>{renderText(node, context)}</Fragment>
  switch (node.type) {
    case 'heading':
      return createElement(`h${Math.min(context.headingLevel + node.depth - 1, 6)}`, { key }, renderNodes(node.children, context))
    case 'paragraph':
      return <p key={key}>{renderNodes(node.children, context)}</p>
    case 'blockquote':
      return <blockquote key={key}>{renderNodes(node.children, context)}</blockquote>
    case 'strong':
      return <strong key={key}>{renderNodes(node.children, context)}</strong>
    case 'emphasis':
      return <em key={key}>{renderNodes(node.children, context)}</em>
    case 'deleted':
      return <del key={key}>{renderNodes(node.children, context)}</del>
    case 'list': {
      const items = renderNodes(node.children, context)
      return node.ordered ? (
        <ol key={key} start={node.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      )
    }
    case 'item':
      return (
        <li key={key}>
          {node.checked !== undefined ? (
            <>
              <span aria-hidden="true">{node.checked ? '☑ ' : '☐ '}</span>
              <span className="visually-hidden">{node.checked ? 'Done: ' : 'To do: '}</span>
            </>
          ) : null}
          {renderNodes(node.children, context)}
        </li>
      )
    case 'code':
      // Code wraps rather than scrolls (see markdown.css.ts).
      return (
        <pre key={key} className={styles.codeBlock}>
          <code>{node.text}</code>
        </pre>
      )
    case 'inline-code':
      return <code key={key}>{node.text}</code>
    case 'raw':
      // The words of a block of HTML from the content (markdown-document.ts leaves its tags out).
      return (
        <p key={key} className={styles.rawHtml}>
          {node.text}
        </p>
      )
    case 'rule':
      return <hr key={key} />
    case 'break':
      return <br key={key} />
    case 'link': {
      const children = renderNodes(node.children, { ...context, isInLink: true })
      // Checked when the document was made; checked again here, since a document may come from anywhere.
      const href = context.isInLink ? null : safeHref(node.href)
      if (!href) return <Fragment key={key}>{children}</Fragment>
      return (
        <a key={key} href={href} title={node.title} rel={/^(https?:)?\/\//i.test(href) ? 'noopener noreferrer nofollow' : undefined}>
          {children}
        </a>
      )
    }
    case 'table':
      return renderTable(node, key, context)
    default:
      return null
  }
}

/** A wide table scrolls inside its own box, which the keyboard can reach and a screen reader can name. */
function renderTable(table: Extract<MarkdownNode, { type: 'table' }>, key: number, context: Context): ReactNode {
  const alignment = (index: number) => (table.align[index] ? { textAlign: table.align[index] ?? undefined } : undefined)
  return (
    <div key={key} className={styles.tableScroll} role="region" aria-label={table.label} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {table.head.map((cell, index) => (
              <th key={index} scope="col" style={alignment(index)}>
                {renderNodes(cell, context)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index} style={alignment(index)}>
                  {renderNodes(cell, context)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Plain text, with "[n]" linked to its source when the reader of an answer can follow it. */
function renderText(text: string, context: Context): ReactNode {
  const { citation } = context
  if (!citation || context.isInLink) return text
  const parts: ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(CITATION)) {
    const target = citation(Number(match[1]))
    if (!target) continue
    const index = match.index ?? 0
    if (index > last) parts.push(text.slice(last, index))
    parts.push(
      <a key={index} href={target.href} className={styles.citation} title={target.title}>
        {match[0]}
      </a>,
    )
    last = index + match[0].length
  }
  if (!parts.length) return text
  if (last < text.length) parts.push(text.slice(last))
  return parts
}

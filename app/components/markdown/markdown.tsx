import { Lexer, type Token, type Tokens } from 'marked'
import { Fragment, createElement, type ReactNode } from 'react'
import * as styles from './markdown.css'
import { decodeEntities, safeHref } from './markdown-text'

/** Where an answer's "[n]" points: the n-th source's address and, optionally, its title (shown on hover). */
export interface CitationTarget {
  href: string
  title?: string
}

export interface MarkdownProps {
  /** The Markdown text as stored (an answer, an article, an agent's output). */
  source: string
  /** The heading level a "#" heading becomes, so the text fits under the page's own headings (default 2). */
  headingLevel?: number
  /** Turns "[n]" in the text into a link to the n-th source; without it (or when it gives nothing) "[n]" stays text. */
  citation?: (n: number) => CitationTarget | undefined
  className?: string
  id?: string
}

// GitHub-flavoured, and a single line break stays a line break: answers and agent output are often plain text.
const LEX_OPTIONS = { gfm: true, breaks: true } as const
const CITATION = /\[(\d{1,3})\]/g

/**
 * Markdown as React elements, never as an HTML string: text goes through React's escaping, raw HTML in the content is
 * shown as the text it is, and links keep only safe addresses. Rendered on the server like the rest of the page, so it
 * reads the same with scripts off.
 */
export function Markdown({ source, headingLevel = 2, citation, className, id }: MarkdownProps) {
  const renderer = new ReactRenderer({ headingLevel, citation })
  return (
    <div id={id} className={className ? `${styles.markdown} ${className}` : styles.markdown}>
      {renderer.blocks(Lexer.lex(source, LEX_OPTIONS))}
    </div>
  )
}

interface RenderOptions {
  headingLevel: number
  citation?: MarkdownProps['citation']
}

/** Walks marked's tokens; each method returns React nodes with stable keys. */
class ReactRenderer {
  constructor(private readonly options: RenderOptions) {}

  blocks(tokens: Token[]): ReactNode[] {
    return tokens.map((token, index) => this.block(token, index))
  }

  private block(token: Token, key: number): ReactNode {
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading
        const level = Math.min(Math.max(this.options.headingLevel, 1) + heading.depth - 1, 6)
        return createElement(`h${level}`, { key }, this.inline(heading.tokens))
      }
      case 'paragraph':
        return <p key={key}>{this.inline((token as Tokens.Paragraph).tokens)}</p>
      case 'text': {
        // A tight list item's text: inline content without a paragraph around it.
        const text = token as Tokens.Text
        return <Fragment key={key}>{text.tokens ? this.inline(text.tokens) : this.text(text.text)}</Fragment>
      }
      case 'blockquote':
        return <blockquote key={key}>{this.blocks((token as Tokens.Blockquote).tokens)}</blockquote>
      case 'list':
        return this.list(token as Tokens.List, key)
      case 'code':
        return (
          <pre key={key} className={styles.codeBlock}>
            <code>{(token as Tokens.Code).text}</code>
          </pre>
        )
      case 'table':
        return this.table(token as Tokens.Table, key)
      case 'hr':
        return <hr key={key} />
      case 'html': {
        // Raw HTML is never emitted: it is shown as the text it is (comments, which nobody reads, are left out).
        const html = (token as Tokens.HTML).text.replace(/<!--[\s\S]*?(-->|$)/g, '').trim()
        return html ? (
          <p key={key} className={styles.rawHtml}>
            {html}
          </p>
        ) : null
      }
      case 'space':
      case 'def':
        return null
      default:
        return this.unknown(token, key)
    }
  }

  private list(list: Tokens.List, key: number): ReactNode {
    const items = list.items.map((item, index) => (
      <li key={index}>
        {item.task ? (
          <>
            <span aria-hidden="true">{item.checked ? '☑ ' : '☐ '}</span>
            <span className="visually-hidden">{item.checked ? 'Done: ' : 'To do: '}</span>
          </>
        ) : null}
        {this.blocks(item.tokens.filter((token) => token.type !== 'checkbox'))}
      </li>
    ))
    if (!list.ordered) return <ul key={key}>{items}</ul>
    const start = typeof list.start === 'number' && list.start !== 1 ? list.start : undefined
    return (
      <ol key={key} start={start}>
        {items}
      </ol>
    )
  }

  /** A wide table scrolls inside its own box, which the keyboard can reach and a screen reader can name. */
  private table(table: Tokens.Table, key: number): ReactNode {
    const alignOf = (index: number) => table.align[index] ?? undefined
    const headerText = table.header.map((cell) => decodeEntities(cell.text)).join(', ')
    return (
      <div key={key} className={styles.tableScroll} role="region" aria-label={`Table: ${headerText}`.slice(0, 200)} tabIndex={0}>
        <table>
          <thead>
            <tr>
              {table.header.map((cell, index) => (
                <th key={index} scope="col" style={alignOf(index) ? { textAlign: alignOf(index) ?? undefined } : undefined}>
                  {this.inline(cell.tokens)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, rowIndex) => (
              <tr key={rowIndex}>
                {row.map((cell, index) => (
                  <td key={index} style={alignOf(index) ? { textAlign: alignOf(index) ?? undefined } : undefined}>
                    {this.inline(cell.tokens)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )
  }

  inline(tokens: Token[] | undefined, isInLink = false): ReactNode[] {
    return (tokens ?? []).map((token, key) => this.span(token, key, isInLink))
  }

  private span(token: Token, key: number, isInLink: boolean): ReactNode {
    switch (token.type) {
      case 'text': {
        const text = token as Tokens.Text
        if (text.tokens?.length) return <Fragment key={key}>{this.inline(text.tokens, isInLink)}</Fragment>
        return <Fragment key={key}>{this.text(text.text, isInLink)}</Fragment>
      }
      case 'escape':
        return <Fragment key={key}>{decodeEntities((token as Tokens.Escape).text)}</Fragment>
      case 'strong':
        return <strong key={key}>{this.inline((token as Tokens.Strong).tokens, isInLink)}</strong>
      case 'em':
        return <em key={key}>{this.inline((token as Tokens.Em).tokens, isInLink)}</em>
      case 'del':
        return <del key={key}>{this.inline((token as Tokens.Del).tokens, isInLink)}</del>
      case 'codespan':
        return <code key={key}>{(token as Tokens.Codespan).text}</code>
      case 'br':
        return <br key={key} />
      case 'link': {
        const link = token as Tokens.Link
        const href = isInLink ? null : safeHref(link.href)
        const children = this.inline(link.tokens, true)
        if (!href) return <Fragment key={key}>{children}</Fragment>
        return (
          <a key={key} href={href} title={link.title ?? undefined} rel={isExternal(href) ? 'noopener noreferrer nofollow' : undefined}>
            {children}
          </a>
        )
      }
      case 'image': {
        // Pictures are offered as links rather than loaded: content from the web should not make readers' browsers
        // fetch from other sites.
        const image = token as Tokens.Image
        const label = `Image: ${decodeEntities(image.text) || 'untitled'}`
        const href = isInLink ? null : safeHref(image.href)
        if (!href) return <Fragment key={key}>[{label}]</Fragment>
        return (
          <a key={key} href={href} rel={isExternal(href) ? 'noopener noreferrer nofollow' : undefined}>
            [{label}]
          </a>
        )
      }
      case 'html': {
        const html = (token as Tokens.Tag).text
        if (/^<br\s*\/?>$/i.test(html)) return <br key={key} />
        if (html.startsWith('<!--')) return null
        return <Fragment key={key}>{html}</Fragment>
      }
      default:
        return this.unknown(token, key)
    }
  }

  /** Plain text, with "[n]" linked to its source when the reader of an answer can follow it. */
  private text(raw: string, isInLink = false): ReactNode {
    const text = decodeEntities(raw)
    const { citation } = this.options
    if (!citation || isInLink) return text
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

  /** Tokens of a kind this renderer does not know: keep their words rather than lose them. */
  private unknown(token: Token, key: number): ReactNode {
    if ('tokens' in token && Array.isArray(token.tokens)) return <Fragment key={key}>{this.inline(token.tokens as Token[])}</Fragment>
    return 'text' in token && typeof token.text === 'string' ? <Fragment key={key}>{decodeEntities(token.text)}</Fragment> : null
  }
}

const isExternal = (href: string) => /^(https?:)?\/\//i.test(href)

import { Fragment } from 'react'

/**
 * A long value without spaces (a username, an e-mail address) that may break after its dots, @, _ and -, so that its
 * column can be narrower than the whole value and the table fits its box.
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(/(?<=[.@_-])/)
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  )
}

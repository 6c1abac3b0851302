import * as layout from '~/styles/layout.css'

/**
 * Said above a field that a question or command came back into after sign-in (ADR 324): the session had ended when it
 * was sent, so nothing was asked yet; and, when the address could carry only its beginning, that its end is missing.
 */
export function KeptDraftNotice({ isCut, noun, button }: { isCut: boolean; noun: 'question' | 'command'; button: string }) {
  return (
    <p className={layout.notice} role="status" id="kept-draft">
      Your session had ended, so your {noun} was not sent. It is back in the field below: press {button} to send it.
      {isCut ? ` It was too long to keep whole through sign-in: only its beginning is back, so check its end first.` : null}
    </p>
  )
}

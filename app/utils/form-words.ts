/** Field names as the backend's API spells them, each with the label its form shows (`{ url: 'Video address' }`). */
export type FieldLabels = Readonly<Record<string, string>>

/**
 * A message of the backend's API, or of a contract schema a form reuses, names its field as the API does
 * ('url is required'); a person reads it by the form's label ('Video address is required'). Only the web layer
 * rewords: the API keeps its own messages for its own clients.
 */
export function inFormWords(message: string, labels: FieldLabels): string {
  for (const [field, label] of Object.entries(labels)) {
    if (message.startsWith(`${field} `)) return inFormWords(`${label}${message.slice(field.length)}`, labels)
  }
  // A field named further on, as the API spells its fields (`… cannot be more than num_sources_k`).
  return message.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (word) => (Object.hasOwn(labels, word) ? (labels[word] as string) : word))
}

/** Field errors (the backend's, or a form's own) in the form's words. */
export function fieldErrorsInFormWords(fieldErrors: Record<string, string[]>, labels: FieldLabels): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, messages]) => [field, messages.map((message) => inFormWords(message, labels))]))
}

/** conform's `formatError` for `parseWithZod`: a form whose schema reuses a contract's rules says their messages in its words. */
export function formatErrorInFormWords(labels: FieldLabels) {
  return (issues: ReadonlyArray<{ message: string }>) => issues.map((issue) => inFormWords(issue.message, labels))
}

/**
 * The messages said beside one field, as one text: a single message as it is, several each as a sentence of its own
 * ("Password must be at least 8 characters. Password must contain something besides letters, such as a digit.").
 */
export function inSentences(messages: readonly string[]): string {
  const capitalised = messages.map((message) => message.trim()).filter(Boolean).map((message) => message.charAt(0).toUpperCase() + message.slice(1))
  if (capitalised.length < 2) return capitalised[0] ?? ''
  return capitalised.map((message) => (/[.!?…]$/.test(message) ? message : `${message}.`)).join(' ')
}

/**
 * The messages said beside one field, in the words of its label as on screen: a message that names the field as the
 * API or a contract rule does (`current_password is at most 1000 characters`, `firstName is …`) names it by its label
 * ('Current password is at most 1000 characters'). Every field component says its errors through this, so no form can
 * show a raw field name, whatever schema or backend refusal the message came from. A nested field
 * (`sections[0].title`) is named by its last part as well, as the API names it.
 */
export function inFieldWords(messages: readonly string[], field: { name: string; label: string }): string {
  const apiName = field.name.replace(/^.*[.\]]/, '')
  const labels: Record<string, string> = { [field.name]: field.label, [apiName]: field.label }
  // A raw name already turned into a sentence on its way here ('Current_password is …') is still a raw name.
  if (/[_A-Z]/.test(apiName)) labels[apiName.charAt(0).toUpperCase() + apiName.slice(1)] = field.label
  return inSentences(messages.map((message) => inFormWords(message, labels)))
}

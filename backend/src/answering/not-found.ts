/**
 * What the assistant says when the knowledge base has nothing on a question; the agents say the same. It is
 * given as it stands, never written by a model: when no passage clears score_threshold, no model is asked.
 */
export const NOT_FOUND_ANSWER =
  'I could not find an answer to that in the knowledge base. Try other words, or ask an administrator to add an article about it.'

/**
 * What the assistant says to a follow-up that only places itself after an earlier turn ("And afterwards?", "What about
 * later?") when the conversation has none: read alone, its one word finds whichever passage says it.
 */
export const NO_EARLIER_QUESTION_ANSWER =
  'That reads as a follow-up, but there is no earlier question in this conversation to go on from. Ask the whole question, for example “What happens after I publish an article?”.'

/**
 * What an agent says to a command that asks for a text about nothing in particular ("Summarise please", "Write me a
 * brief"): searching its own words would quote whatever passage says "please".
 */
export const NAME_THE_SUBJECT_ANSWER =
  'What should it be about? Name the subject in the command, for example “Summarise what the knowledge base says about publishing drafts”.'

/**
 * …and, without a language model to read the conversation, when there is one: the quoted answer cannot tell what
 * "afterwards" asks about it.
 */
export function askAfterAnswer(earlierQuestion: string): string {
  const shown = earlierQuestion.length > 120 ? `${earlierQuestion.slice(0, 119).trimEnd()}…` : earlierQuestion
  return `What would you like to know about what comes after “${shown}”? Ask it in full, for example “What do I do after that?” with what “that” is.`
}

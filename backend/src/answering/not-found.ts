/**
 * What the assistant says when the knowledge base has nothing on a question; the agents say the same. It is
 * given as it stands, never written by a model: when no passage clears score_threshold, no model is asked.
 */
export const NOT_FOUND_ANSWER =
  'I could not find an answer to that in the knowledge base. Try other words, or ask an administrator to add an article about it.'

/**
 * English stopwords removed by the tokenizer before stemming.
 *
 * The list contains Lucene's 33 classic English stopwords plus common English
 * function words (pronouns, auxiliaries, prepositions, conjunctions, question
 * words and contraction fragments). Entries are lowercase, accent-free and
 * unstemmed: they are compared with normalized tokens before stemming.
 */
export const englishStopwords: ReadonlySet<string> = new Set([
  // Lucene's classic English stop set (33 words).
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in',
  'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or', 'such', 'that', 'the',
  'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will',
  'with',
  // Pronouns and determiners.
  'i', 'me', 'my', 'myself', 'we', 'our', 'ours', 'ourselves', 'you', 'your',
  'yours', 'yourself', 'yourselves', 'he', 'him', 'his', 'himself', 'she',
  'her', 'hers', 'herself', 'its', 'itself', 'them', 'theirs', 'themselves',
  'those', 'all', 'any', 'both', 'each', 'few', 'more', 'most', 'other',
  'some', 'own', 'same', 'than', 'too', 'very', 'only', 'nor', 'so',
  // Question words.
  'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how',
  // Auxiliaries and modals.
  'am', 'were', 'been', 'being', 'have', 'has', 'had', 'having', 'do', 'does',
  'did', 'doing', 'would', 'should', 'could', 'can', 'shall', 'may', 'might',
  'must',
  // Prepositions, conjunctions and adverbs.
  'about', 'above', 'after', 'again', 'against', 'below', 'before', 'between',
  'because', 'during', 'down', 'from', 'further', 'here', 'just', 'now',
  'off', 'once', 'out', 'over', 'through', 'under', 'until', 'up', 'upon',
  'while', 'also', 'via',
  // Contraction fragments left by the [a-z0-9]+ tokenizer ("don't", "it's").
  's', 't', 'd', 'll', 're', 've', 'm', 'don',
]);

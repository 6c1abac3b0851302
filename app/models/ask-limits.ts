// Limits of the Ask page shared by its server checks and its markup (no imports: the page's JavaScript budget).

/** SEED.md §4: a slow answer is fetched again up to 10 times, waiting 1 s, 2 s, … up to 10 s. */
export const MAX_ANSWER_TRIES = 10
export const QUESTION_MAX_LENGTH = 4000

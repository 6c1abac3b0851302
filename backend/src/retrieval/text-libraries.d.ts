declare module 'snowball-stemmers' {
  interface Stemmer {
    stem(word: string): string
  }
  const snowball: { newStemmer(algorithm: string): Stemmer; algorithms(): string[] }
  export default snowball
}

declare module 'stopword' {
  /** Stopword lists by ISO 639-3 code (fra, deu, …), among the package's functions. */
  const lists: Record<string, string[]>
  export = lists
}

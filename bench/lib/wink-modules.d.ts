// wink-bm25-text-search and wink-nlp-utils ship no type declarations; these cover what the benchmark calls.
declare module 'wink-bm25-text-search' {
  interface Bm25Engine {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number } }): boolean
    definePrepTasks(tasks: Array<(input: any) => any>, field?: string): number
    addDoc(document: Record<string, string>, id: string | number): number
    consolidate(fp?: number): boolean
    search(text: string, limit?: number): Array<[string, number]>
  }
  function bm25(): Bm25Engine
  export default bm25
}

declare module 'wink-nlp-utils' {
  const utils: {
    string: Record<string, (text: string) => any>
    tokens: Record<string, (tokens: string[]) => string[]>
  }
  export default utils
}

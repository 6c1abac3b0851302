export { normalize, tokenize, termFrequencies } from './text';
export { englishStopwords } from './stopwords';
export { chunkArticle, splitSentences, analyzeSentences } from './chunker';
export type { ChunkDraft, ChunkOptions, SentenceInfo, SentenceKind } from './chunker';
export { Bm25Index, countChunkTerms, createIndexedChunk, defaultBm25Parameters, knowledgeBaseBm25Parameters, TITLE_WEIGHT } from './bm25-index';
export type { Bm25Parameters, IndexedChunk, ScoredChunk } from './bm25-index';
export { composeExtractiveAnswer } from './extractive-answer';
export type { AnswerSource, ExtractiveAnswer, ExtractiveAnswerOptions } from './extractive-answer';

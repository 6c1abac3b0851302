/** One timed line of a transcript. */
export interface TranscriptSegment {
  startSeconds: number
  text: string
}

export interface Transcript {
  title: string
  language: string
  segments: TranscriptSegment[]
}

/** Where transcripts come from; one implementation per service, picked in app.ts. */
export interface TranscriptSource {
  /** The transcript of a video; throws TranscriptNotFoundError when it has none. */
  fetchTranscript(videoId: string, signal?: AbortSignal): Promise<Transcript>
}

export class TranscriptNotFoundError extends Error {
  override readonly name = 'TranscriptNotFoundError'
}

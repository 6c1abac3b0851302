import { JSDOM, VirtualConsole } from 'jsdom'
import { decodeBody, type GuardedFetcher } from '../guarded-fetch'
import { TranscriptNotFoundError, type Transcript, type TranscriptSource } from './transcript-source'
import { canonicalVideoUrl } from './video-url'

export interface TimedTextOptions {
  /** YOUTUBE_TRANSCRIPT_BASE_URL: https://www.youtube.com, or a compatible service (the tests' fixture). */
  baseUrl: string
  language: string
  timeoutMs: number
}

/**
 * Transcripts from YouTube's timedtext endpoint (`/api/timedtext?v=…&lang=…`, XML `<text start dur>` lines) and
 * titles from its oEmbed endpoint (`/oembed?url=…&format=json`). Both go through the guarded fetcher.
 */
export class TimedTextTranscriptSource implements TranscriptSource {
  constructor(
    private readonly fetcher: GuardedFetcher,
    private readonly options: TimedTextOptions,
  ) {}

  async fetchTranscript(videoId: string, signal?: AbortSignal): Promise<Transcript> {
    const transcriptUrl = new URL('/api/timedtext', this.options.baseUrl)
    transcriptUrl.search = new URLSearchParams({ v: videoId, lang: this.options.language }).toString()
    const answer = await this.fetcher.fetch(transcriptUrl, { timeoutMs: this.options.timeoutMs, maxBytes: 10 * 1024 * 1024, accept: 'text/xml', signal })
    if (answer.status === 404 || (answer.status >= 200 && answer.status < 300 && answer.body.length === 0)) {
      throw new TranscriptNotFoundError(`The video ${videoId} has no ${this.options.language} transcript`)
    }
    if (answer.status < 200 || answer.status >= 300) throw new Error(`The transcript service answered HTTP ${answer.status}`)
    const segments = parseTimedText(decodeBody(answer))
    if (segments.length === 0) throw new TranscriptNotFoundError(`The video ${videoId} has no ${this.options.language} transcript`)
    return { title: (await this.fetchTitle(videoId, signal)) ?? `YouTube video ${videoId}`, language: this.options.language, segments }
  }

  /** The video's title from oEmbed; a missing title is not worth failing the import for. */
  private async fetchTitle(videoId: string, signal?: AbortSignal): Promise<string | undefined> {
    const oembedUrl = new URL('/oembed', this.options.baseUrl)
    oembedUrl.search = new URLSearchParams({ url: canonicalVideoUrl(videoId), format: 'json' }).toString()
    try {
      const answer = await this.fetcher.fetch(oembedUrl, { timeoutMs: this.options.timeoutMs, maxBytes: 256 * 1024, accept: 'application/json', signal })
      if (answer.status !== 200) return undefined
      const title = (JSON.parse(decodeBody(answer)) as { title?: unknown }).title
      return typeof title === 'string' && title.trim() ? title.trim() : undefined
    } catch {
      return undefined
    }
  }
}

/** `<transcript><text start="1.2" dur="3">Hello &amp;amp; welcome</text>…` into timed lines. */
export function parseTimedText(xml: string): Array<{ startSeconds: number; text: string }> {
  const dom = new JSDOM(xml, { contentType: 'text/xml', virtualConsole: new VirtualConsole() })
  try {
    return [...dom.window.document.querySelectorAll('text')]
      .map((element) => ({
        startSeconds: Number(element.getAttribute('start') ?? 0) || 0,
        // The service escapes entities twice (&amp;#39;): the XML parser undoes one level, this the other.
        text: decodeEntities(element.textContent ?? ''),
      }))
      .filter((segment) => segment.text.trim())
  } finally {
    dom.window.close()
  }
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1].toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10)
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole
    }
    return named[entity.toLowerCase()] ?? whole
  })
}

import type { YoutubeImported } from '../../../../contracts/ingest'
import type { Database } from '../../db/database'
import { InvalidInputError, NotFoundError, UpstreamError } from '../../errors'
import { FetchError } from '../../ingest/guarded-fetch'
import { FetchRefusedError } from '../../ingest/ssrf-guard'
import { TranscriptNotFoundError, type TranscriptSource } from '../../ingest/youtube/transcript-source'
import { canonicalVideoUrl, formatTranscript, parseYoutubeVideoId } from '../../ingest/youtube/video-url'
import { articlesRepository } from '../articles/articles.repository'
import { alreadyThereReason } from './ingest-job'
import { ingestRepository as repository } from './ingest.repository'

/**
 * A YouTube video's transcript into a draft, with the video's address as its source; recorded in tube_urls. A transcript
 * already in the knowledge base makes no draft (ADR 311).
 */
export class YoutubeService {
  constructor(
    private readonly db: Database,
    private readonly transcripts: TranscriptSource,
  ) {}

  async importVideo(address: string): Promise<YoutubeImported> {
    const videoId = parseYoutubeVideoId(address)
    if (!videoId) throw new InvalidInputError('url', 'url is not a YouTube video address (youtube.com/watch?v=…, youtu.be/…, /shorts/…)')
    const url = canonicalVideoUrl(videoId)
    let transcript
    try {
      transcript = await this.transcripts.fetchTranscript(videoId)
    } catch (error) {
      if (error instanceof TranscriptNotFoundError) throw new NotFoundError(error.message, { status: 'not found' })
      if (error instanceof FetchError || error instanceof FetchRefusedError) throw new UpstreamError(`The transcript service could not be reached: ${error.message}`)
      throw new UpstreamError(`The transcript service failed: ${(error as Error).message}`)
    }
    const content = formatTranscript(transcript.segments)
    const saved = await this.db.transaction(async (tx) => {
      // The check of uploads and crawls, under their lock (ADR 311): the same video imported twice at once (a form
      // sent twice) makes one draft.
      await repository.lockIdentityCheck(tx)
      const match = await repository.findIdenticalDocument(tx, { titles: [transcript.title], content })
      if (match) return { match }
      const draftId = await articlesRepository.insertDraft(tx, {
        title: transcript.title,
        content,
        metadata: { source: url, url, video_id: videoId, language: transcript.language, format: 'youtube' },
      })
      await repository.recordTubeVideo(tx, { url, videoId, title: transcript.title, draftId })
      return { draftId }
    })
    if (saved.match) return { success: true, message: alreadyThereReason(saved.match), id: saved.match.id, title: transcript.title, url, duplicate_of: saved.match }
    return { success: true, message: 'Transcript saved as a draft', id: saved.draftId, title: transcript.title, url, duplicate_of: null }
  }
}

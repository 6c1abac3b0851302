const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com'])

/** The 11-character video id of a YouTube address (watch, youtu.be, shorts, embed, live), or undefined. */
export function parseYoutubeVideoId(address: string): string | undefined {
  let url: URL
  try {
    url = new URL(address.trim())
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  const host = url.hostname.toLowerCase()
  let candidate: string | undefined
  if (host === 'youtu.be') candidate = url.pathname.split('/')[1]
  else if (YOUTUBE_HOSTS.has(host)) {
    const [, first, second] = url.pathname.split('/')
    candidate = first === 'watch' ? (url.searchParams.get('v') ?? undefined) : ['shorts', 'embed', 'live', 'v'].includes(first) ? second : undefined
  }
  return candidate && VIDEO_ID.test(candidate) ? candidate : undefined
}

/** The one address a video is recorded under, whichever form it was given in. */
export function canonicalVideoUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}`
}

/** A transcript as paragraphs of about a minute, each led by its start time, so answers can cite a moment. */
export function formatTranscript(segments: Array<{ startSeconds: number; text: string }>, secondsPerParagraph = 60): string {
  const paragraphs: string[] = []
  let current: string[] = []
  let paragraphStart = 0
  for (const segment of segments) {
    if (current.length && segment.startSeconds - paragraphStart >= secondsPerParagraph) {
      paragraphs.push(`[${formatClock(paragraphStart)}] ${current.join(' ')}`)
      current = []
    }
    if (!current.length) paragraphStart = segment.startSeconds
    const text = segment.text.replace(/\s+/g, ' ').trim()
    if (text) current.push(text)
  }
  if (current.length) paragraphs.push(`[${formatClock(paragraphStart)}] ${current.join(' ')}`)
  return paragraphs.join('\n\n')
}

function formatClock(totalSeconds: number): string {
  const seconds = Math.floor(totalSeconds)
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = String(seconds % 60).padStart(2, '0')
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`
}

import { describe, expect, it } from 'vitest'
import { parseTimedText } from './timedtext-transcript-source'
import { canonicalVideoUrl, formatTranscript, parseYoutubeVideoId } from './video-url'

describe('YouTube addresses and transcripts', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    [' https://youtube.com/live/dQw4w9WgXcQ ', 'dQw4w9WgXcQ'],
  ])('finds the video id in %s', (address, id) => {
    expect(parseYoutubeVideoId(address)).toBe(id)
  })

  it.each(['https://vimeo.com/12345', 'https://www.youtube.com/watch?v=short', 'https://www.youtube.com/channel/UC123', 'not a url', 'javascript:alert(1)'])(
    'finds no video in %s',
    (address) => {
      expect(parseYoutubeVideoId(address)).toBeUndefined()
    },
  )

  it('records every form of a video under one address', () => {
    expect(canonicalVideoUrl('dQw4w9WgXcQ')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ')
  })

  it('decodes the twice-escaped entities of timedtext XML', () => {
    const xml = '<transcript><text start="1.5" dur="2">Don&amp;#39;t &amp;amp; won&amp;#39;t</text><text start="3" dur="1"> </text></transcript>'
    expect(parseTimedText(xml)).toEqual([{ startSeconds: 1.5, text: "Don't & won't" }])
  })

  it('groups a transcript into timed paragraphs of about a minute', () => {
    const text = formatTranscript([
      { startSeconds: 0.5, text: 'Hello.' },
      { startSeconds: 30, text: 'Still the first minute.' },
      { startSeconds: 61, text: 'Second paragraph.' },
      { startSeconds: 3725, text: 'Much later.' },
    ])
    expect(text).toBe('[0:00] Hello. Still the first minute.\n\n[1:01] Second paragraph.\n\n[1:02:05] Much later.')
  })
})

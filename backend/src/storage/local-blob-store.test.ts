import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isValidBlobKey, makeUploadKey } from './blob-store'
import { LocalBlobStore } from './local-blob-store'

describe('local blob store', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'kb-blobs-'))
  const store = new LocalBlobStore(directory)
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  it('keeps bytes under a key and gives them back, as a whole or as a stream', async () => {
    const key = makeUploadKey('abc-1', 'Café notes (v2).md')
    expect(key).toBe('uploads/abc-1/Cafe-notes-v2-.md')
    await store.put(key, new TextEncoder().encode('# Notes'), 'text/markdown')
    expect((await store.read(key))?.toString()).toBe('# Notes')
    const blob = await store.get(key)
    expect(blob?.sizeBytes).toBe(7)
    const chunks: Buffer[] = []
    for await (const chunk of blob!.body) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).toString()).toBe('# Notes')
  })

  it('answers undefined for a key with nothing under it, and forgets deleted keys', async () => {
    expect(await store.get('uploads/none/x.pdf')).toBeUndefined()
    expect(await store.read('uploads/none/x.pdf')).toBeUndefined()
    await store.put('uploads/gone/x.txt', new Uint8Array([1]), 'text/plain')
    await store.delete('uploads/gone/x.txt')
    expect(await store.read('uploads/gone/x.txt')).toBeUndefined()
  })

  it.each(['../secret', 'uploads/../../etc/passwd', '/etc/passwd', 'uploads//x', 'uploads/x y', '.hidden/x', ''])('refuses the key %j', async (key) => {
    expect(isValidBlobKey(key)).toBe(false)
    await expect(store.read(key)).rejects.toThrow(/Not a valid blob key/)
  })
})

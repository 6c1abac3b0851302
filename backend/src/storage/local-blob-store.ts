import { createReadStream } from 'node:fs'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isValidBlobKey, type BlobStore, type StoredBlob } from './blob-store'

/** Blobs as files under one directory (DATA_DIR/files by default): the embedded default, no service needed. */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const
  private readonly root: string

  constructor(directory: string) {
    this.root = path.resolve(directory)
  }

  // The content type lives in stored_files; a file on disk has nowhere to keep it.
  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    const target = this.pathOf(key)
    await mkdir(path.dirname(target), { recursive: true })
    // Written aside and renamed, so a crash never leaves half a file under a key that is in use.
    const partial = `${target}.${process.pid}.partial`
    await writeFile(partial, bytes)
    await rename(partial, target)
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    const target = this.pathOf(key)
    const found = await stat(target).catch(() => undefined)
    if (!found?.isFile()) return undefined
    return { body: createReadStream(target), sizeBytes: found.size }
  }

  async read(key: string): Promise<Buffer | undefined> {
    return readFile(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true })
  }

  private pathOf(key: string): string {
    if (!isValidBlobKey(key)) throw new Error(`Not a valid blob key: ${key}`)
    const target = path.resolve(this.root, key)
    // Belt and braces on top of the key alphabet: nothing outside the root.
    if (!target.startsWith(this.root + path.sep)) throw new Error(`Not a valid blob key: ${key}`)
    return target
  }
}

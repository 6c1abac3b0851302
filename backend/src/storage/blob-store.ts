import type { Readable } from 'node:stream'

/** A stored original: its bytes as a stream, and its length when the store knows it. */
export interface StoredBlob {
  body: Readable
  sizeBytes?: number
}

/**
 * Where originals (uploaded files) are kept, by key. The key is what the API calls `s3_key`, whichever
 * store is configured, so a download link survives a move from the local directory to object storage.
 */
export interface BlobStore {
  readonly kind: 'local' | 's3'
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** The blob, or undefined when nothing is stored under the key. */
  get(key: string): Promise<StoredBlob | undefined>
  /** The whole blob in memory (for parsing); undefined when nothing is stored under the key. */
  read(key: string): Promise<Buffer | undefined>
  delete(key: string): Promise<void>
}

// Keys end up in file paths and object names: a closed alphabet, no empty segments, no "..".
const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/

/** Whether a key is one this application could have made; anything else is refused before reaching a store. */
export function isValidBlobKey(key: string): boolean {
  return key.length <= 512 && KEY_PATTERN.test(key) && !key.split('/').includes('..')
}

/** A new key for an uploaded file: unique, readable, and safe as a path or object name. */
export function makeUploadKey(id: string, fileName: string): string {
  const safeName =
    fileName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[.-]+/, '')
      .slice(-120) || 'file'
  return `uploads/${id}/${safeName}`
}

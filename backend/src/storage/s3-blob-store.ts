import { Readable } from 'node:stream'
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { isValidBlobKey, type BlobStore, type StoredBlob } from './blob-store'

export interface S3BlobStoreOptions {
  bucket: string
  region: string
  /** For S3-compatible services (MinIO, R2, Ceph…); unset for AWS. */
  endpoint?: string
  forcePathStyle: boolean
  accessKeyId?: string
  secretAccessKey?: string
  /** Prefix of every object name, so one bucket can hold several installations. */
  prefix: string
}

/** Blobs as objects in an S3-compatible bucket; the key is the object name under an optional prefix. */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const
  private readonly client: S3Client

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      // Without explicit keys the SDK's own chain applies (environment, instance role…).
      credentials:
        options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
    })
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.objectName(key), Body: bytes, ContentType: contentType }))
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectName(key) }))
      if (!answer.Body) return undefined
      return { body: answer.Body as Readable, sizeBytes: answer.ContentLength }
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
  }

  async read(key: string): Promise<Buffer | undefined> {
    const blob = await this.get(key)
    if (!blob) return undefined
    const chunks: Buffer[] = []
    for await (const chunk of blob.body) chunks.push(Buffer.from(chunk as Uint8Array))
    return Buffer.concat(chunks)
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectName(key) }))
  }

  private objectName(key: string): string {
    if (!isValidBlobKey(key)) throw new Error(`Not a valid blob key: ${key}`)
    return `${this.options.prefix}${key}`
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
}

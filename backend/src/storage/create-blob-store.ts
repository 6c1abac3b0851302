import path from 'node:path'
import type { Config } from '../config'
import type { BlobStore } from './blob-store'
import { LocalBlobStore } from './local-blob-store'
import { S3BlobStore } from './s3-blob-store'

/** The blob store the configuration asks for: a directory under DATA_DIR by default, a bucket with BLOB_STORE=s3. */
export function createBlobStore(config: Config): BlobStore {
  if (config.BLOB_STORE === 's3') {
    if (!config.S3_BUCKET) throw new Error('Invalid backend configuration: BLOB_STORE=s3 needs S3_BUCKET')
    return new S3BlobStore({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      prefix: config.S3_PREFIX,
    })
  }
  return new LocalBlobStore(path.join(config.DATA_DIR, 'files'))
}

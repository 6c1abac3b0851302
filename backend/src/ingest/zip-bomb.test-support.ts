import JSZip from 'jszip'
import { makeSampleDocx } from '../../../tests/fixtures/sample-files'

const CENTRAL_DIRECTORY_ENTRY = 0x02014b50
const LOCAL_FILE_HEADER = 0x04034b50

/**
 * A real DOCX whose word/document.xml carries `padBytes` trailing spaces (which deflate to almost nothing),
 * while its zip directory and local header declare that entry at its size without them: an archive that lies
 * about how large it expands.
 */
export async function makeLyingDocx(padBytes: number): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(await makeSampleDocx())
  const xml = await zip.file('word/document.xml')!.async('string')
  const declaredSize = Buffer.byteLength(xml)
  zip.file('word/document.xml', xml + ' '.repeat(padBytes))
  const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' })
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const target = Buffer.from('word/document.xml')
  let patched = 0
  for (let offset = 0; offset + 46 <= bytes.length; offset++) {
    const signature = view.getUint32(offset, true)
    if (signature === LOCAL_FILE_HEADER && Buffer.from(bytes.subarray(offset + 30, offset + 30 + target.length)).equals(target)) {
      view.setUint32(offset + 22, declaredSize, true)
      patched++
    }
    if (signature === CENTRAL_DIRECTORY_ENTRY && Buffer.from(bytes.subarray(offset + 46, offset + 46 + target.length)).equals(target)) {
      view.setUint32(offset + 24, declaredSize, true)
      patched++
    }
  }
  if (patched !== 2) throw new Error(`expected to patch a local header and a directory entry, patched ${patched}`)
  return bytes
}

import { describe, expect, it } from 'vitest'
import { makeCorruptDocx, makeSampleDocx, makeSamplePdf } from '../../../tests/fixtures/sample-files'
import { sniffFormat } from './sniff-format'

const text = (value: string) => new TextEncoder().encode(value)
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])

describe('sniffing the type of a file from its content', () => {
  it('recognises a PDF and a DOCX whatever they are called', async () => {
    expect(await sniffFormat(await makeSamplePdf(), { fileName: 'notes.txt' })).toMatchObject({ isSupported: true, format: 'pdf' })
    expect(await sniffFormat(await makeSampleDocx(), { fileName: 'report.bin' })).toMatchObject({ isSupported: true, format: 'docx' })
  })

  it('refuses an image renamed to .pdf', async () => {
    expect(await sniffFormat(PNG, { fileName: 'scan.pdf', declaredType: 'application/pdf' })).toEqual({ isSupported: false, description: 'image/png (.png)' })
  })

  it('refuses binary data of no known type', async () => {
    expect(await sniffFormat(Uint8Array.from([1, 2, 3, 0, 4, 5, 6, 7, 8, 9]), { fileName: 'data.csv' })).toEqual({ isSupported: false, description: 'binary data of an unknown type' })
  })

  it('reads a damaged zip named .docx as a DOCX, so its error names the problem', async () => {
    expect(await sniffFormat(await makeCorruptDocx(), { fileName: 'broken.docx' })).toMatchObject({ isSupported: true, format: 'docx' })
  })

  it('recognises an HTML document even when it is named .txt', async () => {
    expect(await sniffFormat(text('<!DOCTYPE html><html><body><p>x</p></body></html>'), { fileName: 'page.txt' })).toMatchObject({ format: 'html' })
  })

  it('lets the name choose between text formats', async () => {
    expect(await sniffFormat(text('a,b\n1,2\n'), { fileName: 'table.csv' })).toEqual({ isSupported: true, format: 'csv', contentType: 'text/csv; charset=utf-8' })
    expect(await sniffFormat(text('Plain words.'), { fileName: 'readme.md' })).toMatchObject({ format: 'markdown' })
  })

  it('guesses Markdown, CSV and plain text from content when the name says nothing', async () => {
    expect(await sniffFormat(text('# Title\n\nSome text'), { fileName: 'upload' })).toMatchObject({ format: 'markdown' })
    expect(await sniffFormat(text('title,content\na,b\nc,d\n'), { fileName: 'upload' })).toMatchObject({ format: 'csv' })
    expect(await sniffFormat(text('Just a sentence, with a comma.'), { fileName: 'upload' })).toMatchObject({ format: 'text' })
  })

  it('reads legacy single-byte text as Windows-1252', async () => {
    expect(await sniffFormat(Uint8Array.from([0x43, 0x61, 0x66, 0xe9, 0x0a]), { fileName: 'menu.txt' })).toEqual({
      isSupported: true,
      format: 'text',
      contentType: 'text/plain; charset=windows-1252',
    })
  })

  it('reads UTF-16 text, as Windows saves "Unicode" files, with or without its byte-order mark', async () => {
    const utf16 = (value: string, order: 'le' | 'be', bom: boolean) => {
      const units = [...(bom ? [0xfeff] : []), ...Array.from(value, (character) => character.charCodeAt(0))]
      return Uint8Array.from(units.flatMap((unit) => (order === 'le' ? [unit & 0xff, unit >> 8] : [unit >> 8, unit & 0xff])))
    }
    const notes = 'Café opening hours\nMonday to Friday, 8 to 18.\n'
    expect(await sniffFormat(utf16(notes, 'le', true), { fileName: 'notes.txt' })).toEqual({ isSupported: true, format: 'text', contentType: 'text/plain; charset=utf-16le' })
    expect(await sniffFormat(utf16(notes, 'be', true), { fileName: 'notes.txt' })).toEqual({ isSupported: true, format: 'text', contentType: 'text/plain; charset=utf-16be' })
    expect(await sniffFormat(utf16(notes, 'le', false), { fileName: 'notes.txt' })).toEqual({ isSupported: true, format: 'text', contentType: 'text/plain; charset=utf-16le' })
    expect(await sniffFormat(utf16('name,price\nKiwi,3\n', 'le', true), { fileName: 'prices.csv' })).toMatchObject({ isSupported: true, format: 'csv' })
  })
})

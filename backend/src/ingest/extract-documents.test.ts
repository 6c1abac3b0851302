import { Document, Packer, Paragraph, Table, TableCell, TableRow } from 'docx'
import { describe, expect, it } from 'vitest'
import { makeCorruptDocx, makeCorruptPdf, makeSampleDocx, makeSamplePdf, makeSamplePng } from '../../../tests/fixtures/sample-files'
import { renderPage } from '../../../tests/fixtures/fixture-site'
import { extractDocuments } from './extract-documents'
import { ExtractionError, type ExtractionLimits } from './extracted-document'
import { assertInflatesWithin, readDeclaredZipSize, ZipTooLargeError } from './zip-size'
import { makeLyingDocx } from './zip-bomb.test-support'

const LIMITS: ExtractionLimits = { maxDecompressedBytes: 50 * 1024 * 1024, maxTextChars: 1_000_000, maxPdfPages: 50, maxCsvRows: 100, timeoutMs: 20_000 }
const text = (value: string) => new TextEncoder().encode(value)

describe('reading files into documents', () => {
  it('rebuilds headings, paragraphs and lists from a PDF layout', async () => {
    const [document] = await extractDocuments(await makeSamplePdf(), 'pdf', 'basil.pdf', LIMITS)
    expect(document.title).toBe('Growing basil indoors')
    expect(document.content).toContain('# Growing basil indoors')
    expect(document.content).toContain('## Daily care')
    expect(document.content).toContain('- Water when the top of the soil feels dry\n- Turn the pot a quarter turn every day')
    expect(document.content).toContain('Basil grows well on a sunny windowsill that gets at least six hours of light a day.')
  })

  it('refuses a PDF with more pages than the limit', async () => {
    await expect(extractDocuments(await makeSamplePdf(undefined, { pages: 3 }), 'pdf', 'long.pdf', { ...LIMITS, maxPdfPages: 2 })).rejects.toThrow(
      /3 pages, more than the limit of 2/,
    )
  })

  it('reports a corrupt PDF as unreadable', async () => {
    await expect(extractDocuments(makeCorruptPdf(), 'pdf', 'broken.pdf', LIMITS)).rejects.toThrow(/Not a readable PDF/)
  })

  it('keeps the headings and lists of a DOCX as Markdown', async () => {
    const [document] = await extractDocuments(await makeSampleDocx(), 'docx', 'basil.docx', LIMITS)
    expect(document).toEqual({
      title: 'Growing basil indoors',
      content: expect.stringContaining('## Daily care\n\n- Water when the top of the soil feels dry\n- Turn the pot a quarter turn every day'),
    })
  })

  it('leaves the pictures of a DOCX out of its text', async () => {
    const picture = makeSamplePng({ width: 64, height: 48 })
    const [document] = await extractDocuments(await makeSampleDocx(undefined, { picture }), 'docx', 'basil.docx', LIMITS)
    expect(document.content).toContain('Basil grows well on a sunny windowsill that gets at least six hours of light a day.\n\nPinch off the flower buds')
    expect(document.content).not.toMatch(/data:|base64|!\[/)
  })

  it('reports a truncated DOCX as unreadable', async () => {
    await expect(extractDocuments(await makeCorruptDocx(), 'docx', 'broken.docx', LIMITS)).rejects.toThrow(/Not a readable zip archive/)
  })

  it('refuses a DOCX that would expand beyond the decompressed-size limit, without unzipping it', async () => {
    const docx = await makeSampleDocx()
    const expanded = readDeclaredZipSize(docx)
    expect(expanded).toBeGreaterThan(docx.length)
    await expect(extractDocuments(docx, 'docx', 'big.docx', { ...LIMITS, maxDecompressedBytes: expanded - 1 })).rejects.toThrow(/^big\.docx: expands past \d+ KB when unzipped$/)
  })

  it('counts what a DOCX really inflates to, stopping at the limit when its zip declares less', async () => {
    const bomb = await makeLyingDocx(5 * 1024 * 1024)
    const limit = 1024 * 1024
    expect(readDeclaredZipSize(bomb)).toBeLessThan(limit)
    expect(bomb.length).toBeLessThan(limit / 10)
    const error = await extractDocuments(bomb, 'docx', 'bomb.docx', { ...LIMITS, maxDecompressedBytes: limit }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ExtractionError)
    expect((error as Error).message).toBe('bomb.docx: expands past 1 MB when unzipped')
  })

  it('stops counting at the limit, and gives the real total when there is room for it', async () => {
    const bomb = await makeLyingDocx(5 * 1024 * 1024)
    const limit = 1024 * 1024
    await expect(assertInflatesWithin(bomb, limit, 'bomb.docx')).rejects.toThrow(ZipTooLargeError)
    // The same archive with room for it: the real total, far above what the directory declares.
    const total = await assertInflatesWithin(bomb, 10 * limit, 'bomb.docx')
    expect(total - readDeclaredZipSize(bomb)).toBe(5 * 1024 * 1024)
  })

  it('reads a DOCX whose real size fits the limit', async () => {
    const docx = await makeSampleDocx()
    expect(await assertInflatesWithin(docx, LIMITS.maxDecompressedBytes, 'basil.docx')).toBe(readDeclaredZipSize(docx))
  })

  it('takes the main content of an HTML page, not its menu, sidebar or footer', async () => {
    const html = renderPage('Watering tomatoes', ['Tomato plants need deep watering twice a week, at the base of the plant and never on the leaves.', 'Mulch keeps the roots cool.'], [])
    const [document] = await extractDocuments(text(html), 'html', 'page.html', LIMITS)
    expect(document.title).toBe('Watering tomatoes')
    expect(document.content).toContain('Tomato plants need deep watering twice a week')
    expect(document.content).not.toMatch(/Copyright|Newsletter|Menu \//)
  })

  it('keeps an HTML table as a table, each value beside its heading', async () => {
    const html = `<html><head><title>Widget modes</title></head><body><main><h1>Widget modes</h1><p>The widget has two modes, each drawing its own power from the mains supply:</p>
      <table><thead><tr><th>Mode</th><th>Power</th></tr></thead><tbody><tr><td>turbo</td><td>900 W</td></tr><tr><td>eco <b>mode</b></td><td>300 W</td></tr></tbody></table>
      <p>Switch modes with the dial on the front of the widget, next to the power switch.</p></main></body></html>`
    const [document] = await extractDocuments(text(html), 'html', 'modes.html', LIMITS)
    expect(document.content).toContain('| Mode | Power |\n| --- | --- |\n| turbo | 900 W |\n| eco mode | 300 W |')
  })

  it('reads a UTF-16 text file (Windows "Unicode") as its words', async () => {
    const utf16 = Uint8Array.from([0xff, 0xfe, ...Array.from('Café opening hours\r\nMonday to Friday.', (character) => [character.charCodeAt(0) & 0xff, character.charCodeAt(0) >> 8]).flat()])
    const [document] = await extractDocuments(utf16, 'text', 'hours.txt', LIMITS)
    expect(document.content).toBe('Café opening hours\nMonday to Friday.')
  })

  it('keeps a DOCX table as a table', async () => {
    const cell = (words: string) => new TableCell({ children: [new Paragraph(words)] })
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph('Meeting rooms and how many people each one seats.'),
            new Table({ rows: [new TableRow({ children: [cell('Room'), cell('Capacity')] }), new TableRow({ children: [cell('Alpha'), cell('20')] })] }),
          ],
        },
      ],
    })
    const [document] = await extractDocuments(new Uint8Array(await Packer.toBuffer(docx)), 'docx', 'rooms.docx', LIMITS)
    expect(document.content).toContain('| Room | Capacity |\n| --- | --- |\n| Alpha | 20 |')
  })

  it('leaves pictures inlined as data: addresses out of an HTML page, keeping linked ones', async () => {
    const inline = `data:image/png;base64,${Buffer.from(makeSamplePng({ width: 8, height: 8 })).toString('base64')}`
    const html = renderPage('Watering tomatoes', [`Water at the base of the plant. <img src="${inline}" alt="A watering can"> Never on the leaves.`, '<img src="/can.png" alt="Can">'], [])
    const [document] = await extractDocuments(text(html), 'html', 'page.html', LIMITS)
    expect(document.content).toMatch(/Water at the base of the plant\. +Never on the leaves\./)
    expect(document.content).toContain('![Can](/can.png)')
    expect(document.content).not.toMatch(/data:|base64/)
  })

  it('titles a Markdown file by its first heading and keeps it as it is', async () => {
    const [document] = await extractDocuments(text('Intro line\n\n# Seed saving\n\n- Dry the seeds\n- Label the jar\n'), 'markdown', 'notes.md', LIMITS)
    expect(document).toEqual({ title: 'Seed saving', content: 'Intro line\n\n# Seed saving\n\n- Dry the seeds\n- Label the jar' })
  })

  it('titles a Markdown file by its front matter when it has one', async () => {
    const [document] = await extractDocuments(text('---\ntitle: "Frost dates"\n---\nLast frost is mid May.\n'), 'markdown', 'frost.md', LIMITS)
    expect(document).toEqual({ title: 'Frost dates', content: 'Last frost is mid May.' })
  })

  it('titles a plain text file by its file name', async () => {
    const [document] = await extractDocuments(text('Sow peas in March.\r\nHarvest in June.'), 'text', 'pea_calendar.txt', LIMITS)
    expect(document).toEqual({ title: 'pea calendar', content: 'Sow peas in March.\nHarvest in June.' })
  })

  it('makes one document per CSV row, choosing title and content columns by header', async () => {
    const csv = 'id;Question;Answer\n1;When to sow peas?;"In March; as soon as the soil can be worked."\n2;;Harvest in June.\n3;Empty row;\n'
    const documents = await extractDocuments(text(csv), 'csv', 'faq.csv', LIMITS)
    expect(documents).toEqual([
      { title: 'When to sow peas?', content: 'In March; as soon as the soil can be worked.' },
      { title: 'faq row 2', content: 'Harvest in June.' },
    ])
  })

  it('uses the CSV columns the administrator named', async () => {
    const csv = 'heading,summary,notes\nPeas,Short,Sow in March\n'
    expect(await extractDocuments(text(csv), 'csv', 'x.csv', LIMITS, { titleColumn: 'HEADING', contentColumn: 'notes' })).toEqual([{ title: 'Peas', content: 'Sow in March' }])
  })

  it('says which columns a CSV has when none holds content', async () => {
    await expect(extractDocuments(text('alpha,beta\n1,2\n'), 'csv', 'x.csv', LIMITS)).rejects.toThrow(/needs a content column.*its columns: alpha, beta/)
  })

  it('says a CSV with only its header row has no rows, not that it lacks a content column', async () => {
    for (const csv of ['question,answer\n', 'question,answer', '\uFEFFquestion;answer\r\n\r\n']) {
      await expect(extractDocuments(text(csv), 'csv', 'x.csv', LIMITS)).rejects.toThrow('The CSV has no rows, only its header row (question, answer)')
    }
    await expect(extractDocuments(text(''), 'csv', 'x.csv', LIMITS)).rejects.toThrow('The CSV has no rows')
  })

  it('lists every column of the CSV, the content column too, when a named column is missing', async () => {
    const csv = 'question,answer,category\nWhen to sow peas?,In March.,Sowing\n'
    await expect(extractDocuments(text(csv), 'csv', 'x.csv', LIMITS, { titleColumn: 'nonexistent' })).rejects.toThrow(
      'The CSV has no "nonexistent" column (its columns: question, answer, category)',
    )
    await expect(extractDocuments(text(csv), 'csv', 'x.csv', LIMITS, { contentColumn: 'body' })).rejects.toThrow('The CSV has no "body" column (its columns: question, answer, category)')
    // One column cannot be both: the title column named is the content column.
    await expect(extractDocuments(text(csv), 'csv', 'x.csv', LIMITS, { titleColumn: 'Answer' })).rejects.toThrow('"answer" is the content column; choose another column for the titles')
  })

  it('refuses a CSV with more rows than the limit', async () => {
    const csv = 'title,content\n' + Array.from({ length: 5 }, (_, index) => `t${index},c${index}`).join('\n')
    await expect(extractDocuments(text(csv), 'csv', 'x.csv', { ...LIMITS, maxCsvRows: 4 })).rejects.toThrow(/more than 4 rows/)
  })
})

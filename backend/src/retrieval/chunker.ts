/**
 * Markdown-aware sentence splitting and chunking of knowledge-base articles.
 *
 * Everything here works on character spans of the original text, so chunks
 * keep the article's own Markdown (headings, list markers, emphasis), while
 * `splitSentences` returns the sentences with Markdown markers stripped.
 */

import { countWords, cuttablePieces } from './text';

export interface ChunkDraft {
  ordinal: number;
  text: string;
}

export interface ChunkOptions {
  /** Maximum number of words in a chunk (default 180). */
  maxWords?: number;
  /** Number of trailing sentences of a chunk repeated at the start of the next one (default 0). */
  overlapSentences?: number;
}

export type SentenceKind = 'heading' | 'item' | 'text';

export interface SentenceInfo {
  /** The sentence with Markdown markers stripped and whitespace collapsed. */
  text: string;
  /** Whether the sentence is a heading line, (the start of) a list item, or running text. */
  kind: SentenceKind;
  /** Index of the Markdown block (paragraph, list or heading) it belongs to: a list's items share one. */
  block: number;
  /** For a list item: whether it is numbered ("1. …"), as a procedure's steps are. */
  ordered?: boolean;
  /**
   * The sentence as an answer quotes it, when that differs from `text`: with its code spans kept ("use `##` for
   * subheadings"), so that code reads as code rather than as stray Markdown marks ("use ## for subheadings").
   */
  quoted?: string;
}

const DEFAULT_MAX_WORDS = 180;

/** Abbreviations after which a period does not end a sentence (lowercase). */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'e.g.', 'i.e.', 'etc.', 'vs.', 'cf.', 'al.', 'approx.', 'incl.', 'esp.',
  'dr.', 'mr.', 'mrs.', 'ms.', 'prof.', 'sr.', 'jr.', 'st.', 'mt.',
  'fig.', 'figs.', 'eq.', 'vol.', 'ca.', 'resp.', 'dept.', 'est.',
]);

/** Dotted initialisms such as "u.s." or "a.m." */
const DOTTED_INITIALISM = /^(?:\p{L}\.){2,}$/u;

/**
 * Sentence-final punctuation, optionally followed by closing quotes/brackets, then whitespace or end; or the full stop,
 * exclamation and question marks of Chinese and Japanese (。！？, with their closing brackets), which no space follows;
 * or Arabic's question mark and the danda of Hindi and other Indian scripts.
 */
const SENTENCE_END = /[.!?\u061f\u0964\u0965]+["'\u201d\u2019)\]]*(?=\s|$)|[\u3002\uff01\uff1f]+[\u300d\u300f\uff09]*/gu;

/** Sentence-final punctuation closed by a quote or bracket. */
const QUOTE_CLOSED = /["'\u201d\u2019)\]]$/u;
const LOWERCASE_LETTER = /^\p{Ll}/u;
const CJK_QUOTE_CLOSED = /[\u300d\u300f\uff09]$/u;
const LETTER = /^\p{L}/u;

const HEADING_LINE = /^#{1,6}(?:\s|$)/;
const LIST_ITEM_MARKER = /^(?:[-*+]|\d{1,3}[.)])\s+/;
/** A numbered item's start, after any quote markers. */
const ORDERED_ITEM = /^\s*(?:>\s*)*\d{1,3}[.)]\s/;
const QUOTE_MARKER = /^(?:>\s?)+/;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

interface Span {
  start: number;
  end: number;
  kind: SentenceKind;
  /** Index of the Markdown block (paragraph, list or heading) the span belongs to. */
  block: number;
}

function hasWordContent(text: string): boolean {
  return WORD_CHARACTER.test(text);
}

/**
 * Decides whether the period-terminated match ending at `matchEnd` really ends
 * a sentence. Only called for matches made of periods (no "!" or "?").
 */
function periodEndsSentence(text: string, lineStart: number, dotIndex: number, nextCharacter: string): boolean {
  let wordStart = dotIndex;
  while (wordStart > lineStart && !/\s/.test(text[wordStart - 1] ?? '')) wordStart -= 1;
  const word = text
    .slice(wordStart, dotIndex + 1)
    .toLowerCase()
    .replace(/^[("'\u201c\u2018[*_`]+/, '');
  if (ABBREVIATIONS.has(word) || DOTTED_INITIALISM.test(word)) return false;
  // A short word ending in a period and followed by a lowercase word is most
  // likely an abbreviation missing from the list ("approx. ten", "min. value").
  if (nextCharacter !== '' && /\p{Ll}/u.test(nextCharacter) && /^\p{L}{1,4}\.$/u.test(word)) return false;
  return true;
}

/**
 * Finds sentence spans in the text. Newlines end sentences unless the next line
 * looks like a hard-wrapped continuation (plain text starting in lowercase after
 * a line that did not end a sentence). Headings and list items always start a
 * new sentence; blank lines and headings start a new block.
 */
function scanSpans(text: string): Span[] {
  const spans: Span[] = [];
  let block = 0;
  let blockHasContent = false;
  let open: { start: number; end: number; kind: SentenceKind } | null = null;

  const close = () => {
    if (open !== null) {
      spans.push({ start: open.start, end: open.end, kind: open.kind, block });
      blockHasContent = true;
      open = null;
    }
  };
  const newBlock = () => {
    close();
    if (blockHasContent) {
      block += 1;
      blockHasContent = false;
    }
  };

  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const rawLine = text.slice(lineStart, lineEnd);
    const indent = rawLine.length - rawLine.trimStart().length;
    const trimmed = rawLine.trim();
    const contentEnd = lineStart + indent + trimmed.length;

    if (trimmed.length === 0) {
      newBlock();
    } else if (HEADING_LINE.test(trimmed)) {
      newBlock();
      spans.push({ start: lineStart + indent, end: contentEnd, kind: 'heading', block });
      blockHasContent = true;
      newBlock();
    } else {
      let kind: SentenceKind = 'text';
      let markerLength = 0;
      const quote = QUOTE_MARKER.exec(trimmed);
      if (quote !== null) markerLength = quote[0].length;
      const item = LIST_ITEM_MARKER.exec(trimmed.slice(markerLength));
      if (item !== null) {
        kind = 'item';
        markerLength += item[0].length;
      }
      const firstContent = trimmed.charAt(markerLength);
      const continues = open !== null && kind === 'text' && /\p{Ll}/u.test(firstContent);
      let sentenceStart: number;
      if (continues && open !== null) {
        sentenceStart = open.start;
        kind = open.kind;
      } else {
        close();
        sentenceStart = lineStart + indent;
      }
      const scanFrom = lineStart + indent + markerLength;
      // Scan this line only, so the cost stays linear in the text length.
      const content = text.slice(scanFrom, contentEnd);
      SENTENCE_END.lastIndex = 0;
      let match: RegExpExecArray | null;
      let pending = true;
      while ((match = SENTENCE_END.exec(content)) !== null) {
        const matchIndex = scanFrom + match.index;
        const matchEnd = matchIndex + match[0].length;
        let next = matchEnd;
        while (next < contentEnd && /\s/.test(text[next] ?? '')) next += 1;
        const nextCharacter = next < contentEnd ? (text[next] ?? '') : '';
        const isPeriodOnly = /^\.+/.test(match[0]) && !/[!?]/.test(match[0]);
        if (isPeriodOnly && !periodEndsSentence(text, scanFrom, matchIndex + match[0].lastIndexOf('.'), nextCharacter)) {
          continue;
        }
        // A quoted question or exclamation the sentence goes on after ('"What about an organisation?" asks …').
        if (!isPeriodOnly && QUOTE_CLOSED.test(match[0]) && LOWERCASE_LETTER.test(nextCharacter)) continue;
        // Likewise in Chinese and Japanese, where the sentence goes on right after the closing bracket (「はい。」と言った。).
        if (CJK_QUOTE_CLOSED.test(match[0]) && next === matchEnd && LETTER.test(nextCharacter)) continue;
        spans.push({ start: sentenceStart, end: matchEnd, kind, block });
        blockHasContent = true;
        kind = 'text';
        sentenceStart = next;
        if (next >= contentEnd) {
          pending = false;
          break;
        }
      }
      open = pending && sentenceStart < contentEnd ? { start: sentenceStart, end: contentEnd, kind } : null;
    }

    if (lineEnd === text.length) break;
    lineStart = lineEnd + 1;
  }
  close();
  return spans;
}

/**
 * Removes Markdown markers from a single sentence and collapses whitespace; with `keepsCode`, a sentence's code spans
 * keep their backticks (when they pair up within it).
 */
function stripMarkdown(raw: string, keepsCode = false): string {
  const codeMarks = keepsCode && (raw.match(/`/g)?.length ?? 0) % 2 === 0 ? /\*\*/g : /\*\*|`/g;
  return raw
    .replace(/\s+/g, ' ')
    .trim()
    // A quote's marker first: a heading inside a quote ("> ## Note") is still a heading.
    .replace(QUOTE_MARKER, '')
    .replace(/^#{1,6}(?:\s+|$)/, '')
    .replace(/\s+#+$/, '')
    .replace(LIST_ITEM_MARKER, '')
    .replace(/^\[[ xX]\]\s+/, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)\s]*\)/g, '$1')
    .replace(codeMarks, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** A table's line under its header: `|---|:--:|`. */
const TABLE_SEPARATOR = /^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;

/** The cells of a table row: split at pipes that are not escaped, outer pipes left out. */
function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.replace(/\\\|/g, '|').trim());
}

/**
 * Markdown tables as list items a reader can quote: each row says its cells with their columns' headings
 * ("- Visitor permit — Fee per year: 15 euros."), the header and separator lines left out. Quoted as written, a row
 * read "| Visitor permit | 15 euros |" and the header row "| Permit | Fee per year |" answered what the fees are.
 */
export function tablesAsItems(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const next = lines[index + 1];
    if (!TABLE_ROW.test(line) || next === undefined || !TABLE_SEPARATOR.test(next.trim())) {
      out.push(line);
      continue;
    }
    const headings = tableCells(line);
    index += 1;
    while (index + 1 < lines.length && TABLE_ROW.test(lines[index + 1] as string)) {
      index += 1;
      const cells = tableCells(lines[index] as string);
      if (!cells.some((cell) => WORD_CHARACTER.test(cell))) continue;
      const [first = '', ...rest] = cells;
      const said = rest
        .map((cell, column) => ({ cell, heading: headings[column + 1] ?? '' }))
        .filter(({ cell }) => cell !== '')
        .map(({ cell, heading }) => (heading ? `${heading}: ${cell}` : cell));
      const head = first !== '' ? first : headings[0] ?? '';
      const row = said.length === 0 ? head : head ? `${head} — ${said.join('; ')}` : said.join('; ');
      out.push(`- ${/[.!?…]$/.test(row) ? row : `${row}.`}`);
    }
  }
  return out.join('\n');
}

/**
 * Splits text into sentences, with their kind (heading, list item or text).
 * Markdown markers are stripped; sentences without any letter or digit are dropped.
 */
export function analyzeSentences(text: string): SentenceInfo[] {
  const source = tablesAsItems(normalizeNewlines(text));
  const sentences: SentenceInfo[] = [];
  for (const span of scanSpans(source)) {
    const raw = source.slice(span.start, span.end);
    const sentence = stripMarkdown(raw);
    if (!hasWordContent(sentence)) continue;
    const quoted = stripMarkdown(raw, true);
    const asQuoted = quoted !== sentence ? { quoted } : {};
    if (span.kind === 'item') sentences.push({ text: sentence, kind: span.kind, block: span.block, ordered: ORDERED_ITEM.test(raw), ...asQuoted });
    else sentences.push({ text: sentence, kind: span.kind, block: span.block, ...asQuoted });
  }
  return sentences;
}

/** A numbered item's number, after any quote markers. */
const ITEM_NUMBER = /^(?:>\s*)*(\d{1,3})[.)]\s/;

/**
 * Markdown as prose, for a reader who may quote it word for word (a language model): each line's Markdown markers
 * stripped as an extractive answer's quoted sentences are (headings, quote and list markers, links, images, bold; code
 * spans stay code), a heading made the label of what follows ("Fees:"), a numbered step keeping its number ("2. Open
 * …"), and lines without words (rules, table borders, code fences) left out. Its lines and paragraphs stay as they
 * are, so what is quoted from it, even run onto one line, shows no "##".
 */
export function markdownAsProse(text: string): string {
  const lines: string[] = [];
  for (const line of tablesAsItems(normalizeNewlines(text)).split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') {
      if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('');
      continue;
    }
    const plain = stripMarkdown(trimmed, true);
    if (!hasWordContent(plain)) continue;
    if (HEADING_LINE.test(trimmed.replace(QUOTE_MARKER, ''))) lines.push(/[.!?:;,…]$/.test(plain) ? plain : `${plain}:`);
    else {
      const number = ITEM_NUMBER.exec(trimmed)?.[1];
      lines.push(number !== undefined ? `${number}. ${plain}` : plain);
    }
  }
  return lines.join('\n').trim();
}

/**
 * Splits text into sentences on ". ", "? ", "! " and newlines; headings and list
 * items ("- item", "1. item") are sentences of their own. Abbreviations
 * (e.g., i.e., Dr., etc.) and decimals (3.5) do not end a sentence. Markdown
 * markers (#, list bullets, **, `) are stripped from the returned sentences.
 */
export function splitSentences(text: string): string[] {
  return analyzeSentences(text).map((sentence) => sentence.text);
}

interface Unit {
  start: number;
  end: number;
  words: number;
  block: number;
  heading: boolean;
  /** True when the unit was carried over from the previous chunk. */
  carried: boolean;
}

/** Splits a unit that is longer than the word budget into word-aligned pieces. */
function splitLongUnit(source: string, unit: Unit, firstCapacity: number, capacity: number): Unit[] {
  const pieces: Unit[] = [];
  const wordPattern = /\S+/g;
  wordPattern.lastIndex = unit.start;
  let pieceStart = -1;
  let pieceEnd = -1;
  let pieceWords = 0;
  let limit = Math.max(1, firstCapacity);
  let match: RegExpExecArray | null;
  while ((match = wordPattern.exec(source)) !== null && match.index < unit.end) {
    // Chinese, Japanese or Thai without spaces is cut between its words.
    for (const piece of cuttablePieces(match[0])) {
      if (piece.isWord && pieceWords === limit) {
        pieces.push({ ...unit, start: pieceStart, end: pieceEnd, words: pieceWords });
        pieceStart = -1;
        pieceWords = 0;
        limit = capacity;
      }
      if (pieceStart === -1) pieceStart = match.index + piece.index;
      pieceEnd = match.index + piece.index + piece.text.length;
      if (piece.isWord) pieceWords += 1;
    }
  }
  if (pieceStart !== -1 && pieceWords > 0) {
    pieces.push({ ...unit, start: pieceStart, end: pieceEnd, words: pieceWords });
  } else if (pieceStart !== -1 && pieces.length > 0) {
    const last = pieces[pieces.length - 1];
    if (last !== undefined) last.end = pieceEnd;
  }
  return pieces;
}

function renderChunk(source: string, units: Unit[]): string {
  const parts: string[] = [];
  let index = 0;
  while (index < units.length) {
    const first = units[index] as Unit;
    let last = first;
    let next = index + 1;
    while (next < units.length && (units[next] as Unit).block === first.block) {
      last = units[next] as Unit;
      next += 1;
    }
    parts.push(source.slice(first.start, last.end).trim());
    index = next;
  }
  return parts.join('\n\n').trim();
}

/**
 * Splits an article (Markdown or plain text) into chunks of at most `maxWords`
 * words. Chunks break at paragraph boundaries, and at sentence boundaries inside
 * paragraphs that do not fit; a single sentence longer than the budget is cut at
 * word boundaries. A heading starts a new chunk and stays at the head of the
 * content that follows it. `overlapSentences` trailing sentences of a chunk are
 * repeated at the start of the next chunk of the same section.
 */
export function chunkArticle(content: string, options: ChunkOptions = {}): ChunkDraft[] {
  const maxWords = Math.max(1, Math.floor(options.maxWords ?? DEFAULT_MAX_WORDS));
  const overlapSentences = Math.max(0, Math.floor(options.overlapSentences ?? 0));
  const source = normalizeNewlines(content);

  const blocks: Unit[][] = [];
  for (const span of scanSpans(source)) {
    const words = countWords(source.slice(span.start, span.end));
    if (words === 0) continue;
    const unit: Unit = { start: span.start, end: span.end, words, block: span.block, heading: span.kind === 'heading', carried: false };
    const lastBlock = blocks[blocks.length - 1];
    if (lastBlock !== undefined && (lastBlock[0] as Unit).block === span.block) lastBlock.push(unit);
    else blocks.push([unit]);
  }

  const chunks: Unit[][] = [];
  let current: Unit[] = [];
  let currentWords = 0;
  let freshBody = 0;
  let freshHeadings = 0;

  const reset = (carried: Unit[]) => {
    current = carried;
    currentWords = carried.reduce((sum, unit) => sum + unit.words, 0);
    freshBody = 0;
    freshHeadings = 0;
  };
  /** Drops the oldest carried units until `incoming` more words fit. */
  const makeRoomInCarried = (incoming: number) => {
    while (current.length > 0 && currentWords + incoming > maxWords && (current[0] as Unit).carried) {
      currentWords -= (current.shift() as Unit).words;
    }
  };
  const flush = (incoming: number, carryOver: boolean) => {
    if (freshBody + freshHeadings > 0) chunks.push(current);
    const carried: Unit[] = [];
    if (carryOver && overlapSentences > 0) {
      for (let index = current.length - 1; index >= 0 && carried.length < overlapSentences; index -= 1) {
        const unit = current[index] as Unit;
        if (unit.heading) break;
        carried.unshift({ ...unit, carried: true });
      }
    }
    reset(carried);
    makeRoomInCarried(incoming);
  };
  const append = (unit: Unit) => {
    current.push(unit);
    currentWords += unit.words;
    if (unit.heading) freshHeadings += 1;
    else freshBody += 1;
  };
  const addUnit = (unit: Unit) => {
    if (unit.words > maxWords) {
      const room = maxWords - currentWords;
      const firstCapacity = room > 0 && freshBody + freshHeadings > 0 ? room : maxWords;
      for (const piece of splitLongUnit(source, unit, firstCapacity, maxWords)) addUnit(piece);
      return;
    }
    if (currentWords + unit.words > maxWords) {
      if (freshBody + freshHeadings > 0) flush(unit.words, true);
      else makeRoomInCarried(unit.words);
    }
    append(unit);
  };

  for (const block of blocks) {
    const first = block[0] as Unit;
    if (first.heading) {
      // A heading starts a new chunk; consecutive headings stay together.
      if (freshBody > 0) flush(0, false);
      if (freshHeadings === 0) reset([]);
      for (const unit of block) addUnit(unit);
      continue;
    }
    const blockWords = block.reduce((sum, unit) => sum + unit.words, 0);
    if (currentWords + blockWords <= maxWords) {
      for (const unit of block) append(unit);
    } else if (blockWords <= maxWords && freshBody > 0) {
      flush(blockWords, true);
      for (const unit of block) append(unit);
    } else if (blockWords <= maxWords && freshHeadings === 0) {
      makeRoomInCarried(blockWords);
      for (const unit of block) append(unit);
    } else {
      for (const unit of block) addUnit(unit);
    }
  }
  if (freshBody + freshHeadings > 0) chunks.push(current);

  const drafts: ChunkDraft[] = [];
  for (const units of chunks) {
    const text = renderChunk(source, units);
    if (text.length > 0) drafts.push({ ordinal: drafts.length, text });
  }
  return drafts;
}

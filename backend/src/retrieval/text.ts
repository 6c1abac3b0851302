import { stemmer } from 'stemmer';
import { latinRuleOf, scriptRuleOf, type LatinRule } from './scripts';
import { englishStopwords } from './stopwords';

/** Tokens longer than this are dropped (hashes, base64 blobs, glued URLs). */
const MAX_TOKEN_LENGTH = 40;

/**
 * Combining marks on a Latin, Greek or Cyrillic letter (accents), folded away. In other scripts a mark is part of
 * the spelling (Devanagari's vowel signs) and stays.
 */
const FOLDED_MARKS = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;
/** Marks on no letter (left after a stripped one, or on a digit or symbol). */
const STRAY_MARKS = /(?<![\p{L}\p{M}])\p{M}+/gu;
const NON_ASCII = /[^\x00-\x7f]/;
/** A word that begins with a Latin letter or digit: English rules, or the knowledge base's language's (`setKnowledgeLanguage`). */
const LATIN_LETTER = /^[\p{Script=Latin}\p{N}]/u;

/**
 * A word: letters of any script, with their marks, and digits. Languages written without spaces between words are
 * split further (`WITHOUT_SPACES`).
 */
const TOKEN_PATTERN = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
/** The same for a text in ASCII, faster. */
const ASCII_TOKEN_PATTERN = /[a-z0-9]+/g;

/** Scripts written without spaces between words: a run of them is split into words by the platform's dictionary. */
const WITHOUT_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Greek letters spelled out, as writers without them do ("TNF-α" and "TNF-alpha", "NF-κB" and "NF-kappaB").
 * Otherwise "IFN-γ" would match every "IFN". A text with a Greek word in it (three letters or more, standing alone)
 * is Greek: its letters stay letters and its words, words. Elsewhere a Greek letter is a symbol, and is spelled.
 */
const GREEK_LETTER_NAMES: Readonly<Record<string, string>> = {
  α: 'alpha', β: 'beta', γ: 'gamma', δ: 'delta', ε: 'epsilon', ζ: 'zeta', η: 'eta', θ: 'theta',
  ι: 'iota', κ: 'kappa', λ: 'lambda', μ: 'mu', ν: 'nu', ξ: 'xi', ο: 'omicron', π: 'pi', ρ: 'rho',
  ς: 'sigma', σ: 'sigma', τ: 'tau', υ: 'upsilon', φ: 'phi', χ: 'chi', ψ: 'psi', ω: 'omega',
};
const GREEK_LETTER = /[\u03b1-\u03c9]/g;
const HAS_GREEK_LETTER = /[\u03b1-\u03c9]/;
const GREEK_WORD = /(?<![\p{L}\p{N}])[\u03b1-\u03c9]{3,}(?![\p{L}\p{N}])/u;

function spellGreekLetters(token: string): string {
  return HAS_GREEK_LETTER.test(token) ? token.replace(GREEK_LETTER, (letter) => GREEK_LETTER_NAMES[letter] ?? letter) : token;
}

/**
 * Porter stemming is regex heavy; vocabularies are small compared with the
 * number of tokens, so the terms of each token are memoised. The cache is
 * cleared when it grows too large so that memory stays bounded on adversarial input.
 */
const TERM_CACHE_LIMIT = 100_000;
const termCache = new Map<string, readonly string[]>();

/** The rules for words in the Latin alphabet when the knowledge base is not in English; undefined for English. */
let latin: LatinRule | undefined;

/**
 * Sets the language of the knowledge base's words in the Latin alphabet (KNOWLEDGE_LANGUAGE, ISO 639-1; 'en' by
 * default): its stopwords, and its Snowball stemmer where there is one, instead of English's and Porter. One language
 * per process: a question's words must become the same terms as the articles'. Words of other scripts keep their
 * script's rules. Throws for a language without rules (`KNOWLEDGE_LANGUAGES`).
 */
export function setKnowledgeLanguage(language: string): void {
  if (language === (latin?.language ?? 'en')) return;
  latin = latinRuleOf(language, normalize);
  termCache.clear();
}

/** The language set by `setKnowledgeLanguage`. */
export function knowledgeLanguage(): string {
  return latin?.language ?? 'en';
}

/**
 * The past forms of English irregular verbs, by base form: Porter stems "writes" and "writing" to write but leaves
 * "wrote" and "written" apart, so "Who wrote …?" missed "… writes …". Stemmed as their base form. Left out are forms
 * that are more often another word ("left", "rose", "ground", "born", "felt" is kept); words of another language set
 * by `setKnowledgeLanguage` do not use the table. Chosen on squad-dev-even (ADR 271).
 */
const IRREGULAR_VERB_FORMS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    write: 'wrote written', begin: 'began begun', break: 'broke broken', bring: 'brought', build: 'built', buy: 'bought',
    catch: 'caught', choose: 'chose chosen', come: 'came', draw: 'drew drawn', drive: 'drove driven', eat: 'ate eaten',
    feel: 'felt', fight: 'fought', find: 'found', fly: 'flew flown', forget: 'forgot forgotten', give: 'gave given',
    go: 'went gone', grow: 'grew grown', hear: 'heard', hold: 'held', keep: 'kept', know: 'knew known', lead: 'led',
    lose: 'lost', make: 'made', mean: 'meant', meet: 'met', pay: 'paid', ride: 'rode ridden', run: 'ran', say: 'said',
    see: 'saw seen', sell: 'sold', send: 'sent', shake: 'shook shaken', sing: 'sang sung', sit: 'sat', speak: 'spoke spoken',
    spend: 'spent', stand: 'stood', steal: 'stole stolen', strike: 'struck', swim: 'swam swum', take: 'took taken',
    teach: 'taught', tell: 'told', throw: 'threw thrown', understand: 'understood', wear: 'wore worn', win: 'won',
    seek: 'sought', become: 'became', hide: 'hid hidden', forbid: 'forbade forbidden', arise: 'arose arisen',
    deal: 'dealt', dig: 'dug', drink: 'drank drunk', feed: 'fed', flee: 'fled', forgive: 'forgave forgiven',
    freeze: 'froze frozen', hang: 'hung', lend: 'lent', overcome: 'overcame', overtake: 'overtook overtaken',
    ring: 'rang rung', sink: 'sank sunk', shine: 'shone', shrink: 'shrank shrunk', slide: 'slid', spin: 'spun',
    spring: 'sprang sprung', stick: 'stuck', sting: 'stung', strive: 'strove striven', swear: 'swore sworn',
    sweep: 'swept', swing: 'swung', tear: 'tore torn', undertake: 'undertook undertaken', undergo: 'underwent undergone',
    uphold: 'upheld', withdraw: 'withdrew withdrawn', weave: 'wove woven', weep: 'wept', awake: 'awoke awoken',
    bite: 'bit bitten', blow: 'blew blown', fall: 'fallen', foresee: 'foresaw foreseen',
    mislead: 'misled', outgrow: 'outgrew outgrown', rebuild: 'rebuilt', retell: 'retold', rewrite: 'rewrote rewritten',
    sleep: 'slept', shoot: 'shot', slay: 'slew slain', speed: 'sped', stink: 'stank stunk', think: 'thought',
    withhold: 'withheld', withstand: 'withstood', wake: 'woke woken', beat: 'beaten', bleed: 'bled', breed: 'bred',
    cling: 'clung', creep: 'crept', kneel: 'knelt', leap: 'leapt', light: 'lit', mistake: 'mistook mistaken',
    overthrow: 'overthrew overthrown', partake: 'partook', spit: 'spat', stride: 'strode', tread: 'trod trodden',
  }).flatMap(([base, forms]) => forms.split(' ').map((form) => [form, base] as [string, string])),
);

/**
 * British spellings whose American form Porter stems apart ("organisation" → organis, "organization" → organ;
 * "colour", "color"), by American form. The -ise verbs and their derivatives go by rule (`ISE_ENDING`).
 */
const BRITISH_SPELLINGS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    color: 'colour colours coloured colouring colourful', favor: 'favour favours favoured favouring', favorite: 'favourite favourites',
    favorable: 'favourable', behavior: 'behaviour behaviours', honor: 'honour honours honoured', labor: 'labour labours laboured',
    neighbor: 'neighbour neighbours', neighborhood: 'neighbourhood neighbourhoods', harbor: 'harbour harbours', flavor: 'flavour flavours',
    humor: 'humour', rumor: 'rumour rumours', vapor: 'vapour', odor: 'odour odours', vigor: 'vigour', armor: 'armour', endeavor: 'endeavour endeavours',
    center: 'centre centres centred', meter: 'metre metres', liter: 'litre litres', theater: 'theatre theatres', fiber: 'fibre fibres',
    caliber: 'calibre', somber: 'sombre', luster: 'lustre', license: 'licence licences', defense: 'defence defences', offense: 'offence offences',
    pretense: 'pretence', catalog: 'catalogue catalogues', dialog: 'dialogue dialogues', analog: 'analogue analogues', gray: 'grey greys',
    aging: 'ageing', judgment: 'judgement judgements', acknowledgment: 'acknowledgement', practice: 'practise practised practising',
    tire: 'tyre tyres', aluminum: 'aluminium', maneuver: 'manoeuvre manoeuvres', program: 'programme programmes', enrollment: 'enrolment',
    fulfill: 'fulfil', skillful: 'skilful', analyze: 'analyse', analyzed: 'analysed', analyzes: 'analyses', analyzing: 'analysing',
    paralyze: 'paralyse', paralyzed: 'paralysed', catalyze: 'catalyse', catalyzed: 'catalysed',
  }).flatMap(([american, british]) => british.split(' ').map((form) => [form, american] as [string, string])),
);
/** An -ise verb or a word made from it ("organise", "organisation", "customised"): spelt -ize in American English. */
const ISE_ENDING = /^([a-z]{3,}[^aeiouw])is(e|es|ed|ing|ation|ations|er|ers|able)$/;
/** Words in -ise that no one spells -ize (and -wise words are never matched). */
const ALWAYS_ISE = new Set(['advertis', 'advis', 'chastis', 'compris', 'compromis', 'demis', 'despis', 'devis', 'disguis', 'enterpris', 'exercis', 'expertis', 'franchis', 'improvis', 'merchandis', 'premis', 'promis', 'revis', 'supervis', 'surpris', 'televis', 'treatis', 'excis', 'incis', 'circumcis', 'concis', 'precis', 'paradis', 'repris']);

/** Short forms of words, which Porter stems apart from them ("admin", "administrator"). */
const SHORT_FORMS: ReadonlyMap<string, string> = new Map([
  ['admin', 'administrator'],
  ['admins', 'administrators'],
  ['info', 'information'],
  ['config', 'configuration'],
  ['configs', 'configurations'],
]);

/** A British spelling's American form, or a short form's full word, where Porter would stem the two apart; other words as they are. */
function americanSpelling(token: string): string {
  const listed = BRITISH_SPELLINGS.get(token) ?? SHORT_FORMS.get(token);
  if (listed !== undefined) return listed;
  const ise = ISE_ENDING.exec(token);
  if (ise === null || ALWAYS_ISE.has(`${ise[1]}is`)) return token;
  return `${ise[1]}iz${ise[2]}`;
}

/** A doubled final consonant other than l, s or z ("add", "stiff"). */
const DOUBLED_FINAL_CONSONANT = /([bcdfghjkmnpqrtvwx])\1$/;

/**
 * Porter stems with one consistency fix. Porter undoubles a final consonant only
 * after removing -ed/-ing ("adding" → "ad", "stiffed" → "stif") but leaves the
 * bare word alone ("add", "stiff"), so a word and its inflections would not
 * meet. Undoubling every such final consonant makes them share one stem.
 */
function porterStem(token: string): string {
  const word = americanSpelling(token);
  const stemmed = stemmer(IRREGULAR_VERB_FORMS.get(word) ?? word);
  return stemmed.length >= 3 && DOUBLED_FINAL_CONSONANT.test(stemmed) ? stemmed.slice(0, -1) : stemmed;
}

/** A letter next to a digit: "il6", "apoe4", "covid19", "5ht". */
const LETTER_DIGIT_BOUNDARY = /\p{L}\p{N}|\p{N}\p{L}/u;
const LETTER_OR_DIGIT_RUN = /[\p{L}\p{M}]+|\p{N}+/gu;

/**
 * The terms of one token: its stem, and for a token mixing letters and digits also its letter and digit runs
 * of two or more characters ("il6" → il6, il; "cd40" → cd40, cd, 40). Writers vary between "IL-6" and "IL6",
 * "CD40" and "CD 40"; the runs let each spelling meet the other. Runs are mostly abbreviations, not words, so
 * they are not stemmed. Chosen on the SciFact train split (bench/README.md): runs of one character ("v2") or stemmed
 * runs do no better there.
 */
function termsOfUncached(token: string): readonly string[] {
  // A word in another script: its script's stopwords and stemmer (`scripts.ts`); Latin: Porter, or the set language's.
  const rule = NON_ASCII.test(token) && !LATIN_LETTER.test(token) ? scriptRuleOf(token, normalize) : undefined;
  if (rule?.stopwords.has(token)) return [];
  // Another language's Latin words are stemmed with their accents, which its stemmer reads, then folded like the rest.
  const stemmed = rule ? rule.stem(token) : latin ? normalize(latin.stem(token)) : porterStem(token);
  if (!LETTER_DIGIT_BOUNDARY.test(token)) return [stemmed];
  const terms = [stemmed];
  const stopwords = latin?.stopwords ?? englishStopwords;
  for (const found of token.match(LETTER_OR_DIGIT_RUN) ?? []) {
    const run = latin ? normalize(found) : found;
    if (run.length >= 2 && !stopwords.has(run)) terms.push(run);
  }
  return terms;
}

function termsOf(token: string): readonly string[] {
  let terms = termCache.get(token);
  if (terms === undefined) {
    terms = termsOfUncached(token);
    if (termCache.size >= TERM_CACHE_LIMIT) termCache.clear();
    termCache.set(token, terms);
  }
  return terms;
}

/**
 * Compatibility-decomposes the text (NFKD), strips the accents of Latin, Greek and Cyrillic letters, lowercases it
 * and composes what is left (NFC: Korean syllables stay syllables): "Café ﬁle" becomes "cafe file".
 */
export function normalize(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(FOLDED_MARKS, '$1').replace(STRAY_MARKS, '').toLowerCase().normalize('NFC');
}

const HAS_WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * A question as it is read: every run of spaces, tabs and line breaks one space, none at either end. The patterns that
 * read a question ("What is X?") take time that grows with the square of a run of spaces or worse; a question of 4,000
 * characters, most of them spaces, took the backend half a minute before this.
 */
export function plainQuestion(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * How many words a text has: its whitespace-separated pieces with a letter or digit, a piece in a script written
 * without spaces counting its words ("一度に十冊まで借りられます" is 一度, に, 十, 冊, …, not one), so that chunk and answer lengths mean the same
 * in every language.
 */
export function countWords(text: string): number {
  let count = 0;
  const mayNeedSegmenting = NON_ASCII.test(text);
  for (const piece of text.split(/\s+/)) {
    if (!HAS_WORD_CHARACTER.test(piece)) continue;
    if (!mayNeedSegmenting || !WITHOUT_SPACES.test(piece)) {
      count += 1;
      continue;
    }
    let words = 0;
    for (const part of wordSegmenter.segment(piece)) if (part.isWordLike) words += 1;
    count += Math.max(1, words);
  }
  return count;
}

/**
 * The pieces of a run of text without whitespace, where it may be cut: the run itself, or in a script written without
 * spaces its words and what lies between them (`isWord` false for punctuation), with their offsets in the run.
 */
export function* cuttablePieces(run: string): Iterable<{ index: number; text: string; isWord: boolean }> {
  if (!NON_ASCII.test(run) || !WITHOUT_SPACES.test(run)) {
    yield { index: 0, text: run, isWord: HAS_WORD_CHARACTER.test(run) };
    return;
  }
  for (const part of wordSegmenter.segment(run)) yield { index: part.index, text: part.segment, isWord: part.isWordLike === true };
}

/** The words of a token in a script written without spaces ("東京は日本の首都" → 東京, は, 日本, の, 首都). */
function* wordsOf(token: string): Iterable<string> {
  if (!WITHOUT_SPACES.test(token)) {
    yield token;
    return;
  }
  for (const part of wordSegmenter.segment(token)) if (part.isWordLike) yield part.segment;
}

/**
 * Splits text into stemmed search terms (Porter for English, `setKnowledgeLanguage`): normalizes, spells out Greek
 * letters outside Greek text, keeps words of letters and digits (of any script; words of a script
 * written without spaces are found by the platform's word breaker), drops
 * stopwords (the knowledge base's language's, or those of the word's script) and tokens longer than 40
 * characters; a token mixing letters and digits is followed by the
 * stems of its letter and digit runs ("IL6" → il6, il).
 * Order is preserved and duplicates are kept.
 */
export function tokenize(text: string): string[] {
  return analyzeWords(text, undefined);
}

/**
 * The search terms of a text (as `tokenize` gives them) and its words: the stem of each word that is not a
 * stopword, one per word and in order, without the letter and digit runs. Adjacent words make the pairs that
 * proximity scoring matches ("Super Bowl" → super bowl).
 */
export function tokenizeWithWords(text: string): { terms: string[]; words: string[] } {
  const words: string[] = [];
  return { terms: analyzeWords(text, words), words };
}

/** A negative contraction ("doesn't", "can’t"): its verb (group 1) and "not", both stopwords, not "doesn" and "t". */
const NEGATIVE_CONTRACTION = /\b([a-z]+)n['\u2019]t\b/g;
/** The verbs a negative contraction does not spell whole ("won't" is "will not"). */
const CONTRACTED_VERB: Readonly<Record<string, string>> = { ca: 'can', wo: 'will', sha: 'shall', ai: 'is' };

function analyzeWords(text: string, words: string[] | undefined): string[] {
  const tokens: string[] = [];
  // In another language than English, Latin words keep their accents until stemmed (`termsOfUncached`).
  let normalized = latin ? text.normalize('NFKC').toLowerCase() : normalize(text);
  if (!latin && (normalized.includes("n't") || normalized.includes('n\u2019t'))) {
    normalized = normalized.replace(NEGATIVE_CONTRACTION, (_, verb: string) => `${CONTRACTED_VERB[verb] ?? verb} not`);
  }
  if (!NON_ASCII.test(normalized)) {
    for (const token of normalized.match(ASCII_TOKEN_PATTERN) ?? []) addToken(token, tokens, words);
    return tokens;
  }
  const matches = normalized.match(TOKEN_PATTERN);
  if (matches === null) return tokens;
  const folded = latin ? normalize(normalized) : normalized;
  const spell = HAS_GREEK_LETTER.test(folded) && !GREEK_WORD.test(folded);
  const segment = WITHOUT_SPACES.test(normalized);
  for (const match of matches) {
    const word = latin && !LATIN_LETTER.test(match) ? normalize(match) : match;
    const token = spell ? spellGreekLetters(word) : word;
    if (!segment) addToken(token, tokens, words);
    else for (const word of wordsOf(token)) addToken(word, tokens, words);
  }
  return tokens;
}

function addToken(token: string, tokens: string[], words: string[] | undefined): void {
  if (token.length > MAX_TOKEN_LENGTH || (latin?.stopwords ?? englishStopwords).has(token)) return;
  const terms = termsOf(token);
  if (terms.length === 0) return;
  if (words !== undefined) words.push(terms[0] as string);
  if (terms.length === 1) tokens.push(terms[0] as string);
  else for (const term of terms) tokens.push(term);
}

/** Counts occurrences of each token, in first-occurrence order. */
export function termFrequencies(tokens: string[]): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const token of tokens) {
    frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
  }
  return frequencies;
}

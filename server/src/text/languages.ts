/**
 * One analyzer per language: how a text in that language becomes search terms, for the three
 * full-text engines (SQLite FTS5, PostgreSQL tsvector, the in-memory BM25 index: all index what
 * `indexTerms` returns, so they agree by construction) and for the answer side (sentence choice,
 * coverage, confidence, rerank, gap grouping).
 *
 * Libraries that ship their data, compared on XQuAD's 12 languages (1,440 paragraphs, 7,440
 * questions) before choosing:
 * - stemming: `@orama/stemmers` 3 (the Snowball algorithms, maintained, 28 languages with Greek and
 *   Hindi) over `snowball-stemmers` 0.6 (the same stems where both have the language, 1.5–7× slower,
 *   unmaintained since 2015, no Greek or Hindi). English keeps FTS5's own Porter (porter.ts) and
 *   its hand-made stopwords and question frames (text.ts): the English figures do not move;
 * - stopwords: `stopwords-iso` (every language here, Thai, Hindi, Vietnamese and Chinese included);
 * - word boundaries of scripts written without spaces (Thai, Chinese, Japanese, Khmer, Lao,
 *   Burmese): `Intl.Segmenter` (Node's full ICU carries their dictionaries; no dependency).
 *
 * Folding follows the language: lowercase (Turkish and Azeri dotted/dotless i by their own
 * rules), NFKC, no diacritics stripped where they tell words apart (Vietnamese tones, German
 * umlauts, Romanian and Turkish letters: the Snowball stemmers expect them and fold what they
 * must themselves), Russian ё → е, Arabic tatweel and short vowels dropped.
 */
import { createRequire } from 'node:module';
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as armenian } from '@orama/stemmers/armenian';
import { stemmer as bulgarian } from '@orama/stemmers/bulgarian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as indian } from '@orama/stemmers/indian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as irish } from '@orama/stemmers/irish';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as nepali } from '@orama/stemmers/nepali';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as serbian } from '@orama/stemmers/serbian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as tamil } from '@orama/stemmers/tamil';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';

/** stopwords-iso is one JSON file (a package main without an ESM entry). */
const STOPWORDS_ISO = createRequire(import.meta.url)('stopwords-iso') as Readonly<Record<string, string[] | undefined>>;

/** Snowball stemmers by ISO 639-1 code. */
const STEMMERS: Readonly<Record<string, (word: string) => string>> = {
  ar: arabic,
  hy: armenian,
  bg: bulgarian,
  da: danish,
  nl: dutch,
  fi: finnish,
  fr: french,
  de: german,
  el: greek,
  hu: hungarian,
  hi: indian,
  id: indonesian,
  ms: indonesian,
  ga: irish,
  it: italian,
  lt: lithuanian,
  ne: nepali,
  no: norwegian,
  nb: norwegian,
  nn: norwegian,
  pt: portuguese,
  ro: romanian,
  ru: russian,
  sr: serbian,
  es: spanish,
  sv: swedish,
  ta: tamil,
  tr: turkish,
  uk: ukrainian,
};

/** Languages written without spaces between words: cut by ICU's dictionaries. */
const SEGMENTED = new Set(['th', 'zh', 'ja', 'km', 'lo', 'my']);

/**
 * Question frames beyond the stopword lists: words that shape a question ("in which year", "how
 * many") rather than name its topic, so a passage answering it does not hold them. Folded forms.
 */
const FRAMES: Readonly<Record<string, string>> = {
  de: 'jahr jahre jahren jahrhundert name namen art welche welcher welches welchem welchen viele wie',
  es: 'año años siglo nombre tipo cuál cuáles cuántos cuántas qué',
  ru: 'году год года веке век название имя тип какой какая какое каком каких сколько',
  tr: 'yılında yıl yılı adı adını türü hangi kaç ne nedir',
  el: 'έτος χρονιά έτη όνομα είδος ποιο ποια ποιος πόσα πόσοι πόσες',
  ro: 'anul an secol numele tip care câți câte ce',
  vi: 'năm tên loại gì nào bao nhiêu',
  ar: 'عام سنة اسم نوع ما ماذا كم أي',
  hi: 'वर्ष साल नाम प्रकार कौन क्या कितने कितना',
  zh: '年 哪 什么 多少 名称 名字 哪个 哪些 几',
  th: 'ปี ชื่อ อะไร ใด กี่ ไหน ใคร เท่าไร เท่าไหร่ อย่างไร ทำไม เมื่อไร เมื่อไหร่ ที่ไหน ครั้ง',
};

/** Lowercased word runs; apostrophes and hyphens separate words (as FTS5 cuts them). */
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
const INVISIBLE_RE = /[\u00ad\u200b\u200c\u2060\ufeff]/g;
const ARABIC_MARKS_RE = /[\u0640\u064b-\u065f\u0670]/g;
/** A lone Latin letter carries no meaning ("s" of a possessive, initials). */
const LONE_LATIN_RE = /^[a-z]$/;

export interface Analyzer {
  /** The ISO 639-1 (or 639-2/3) code the analyzer is for. */
  readonly language: string;
  /** Folded words in order, stopwords kept. */
  words(text: string): string[];
  /** The stem of one folded word. */
  stem(word: string): string;
  isStopword(word: string): boolean;
  /** Every word stemmed, in order: what the full-text engines index. */
  indexTerms(text: string): string[];
  /** The distinct terms a question searches for (frames and stopwords out unless nothing is left). */
  searchTerms(question: string): string[];
  /** Content words stemmed, distinct, in order (stopwords out): the answer side's terms. */
  contentTerms(text: string): string[];
  /** contentTerms of a question without its frame words (unless nothing else is left). */
  questionTerms(question: string): string[];
}

/** The primary language subtag of a BCP 47 tag, lowercased ("pt-BR" → "pt"); "" when it is none. */
export function primaryLanguage(tag: string): string {
  const m = /^([a-z]{2,3})(?:[-_]|$)/i.exec(tag.trim());
  return m ? (m[1] as string).toLowerCase() : '';
}

/** Whether `tag` is a well-formed BCP 47 language tag (Intl's own check). */
export function isLanguageTag(tag: string): boolean {
  if (!/^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i.test(tag)) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

function folder(lang: string): (text: string) => string {
  const locale = lang === 'tr' || lang === 'az' ? lang : undefined;
  return (text) => {
    let t = text.replace(INVISIBLE_RE, '').normalize('NFKC');
    t = locale ? t.toLocaleLowerCase(locale) : t.toLowerCase();
    if (lang === 'ru' || lang === 'uk' || lang === 'be') t = t.replace(/ё/g, 'е');
    else if (lang === 'ar' || lang === 'fa' || lang === 'ur') t = t.replace(ARABIC_MARKS_RE, '');
    return t;
  };
}

/**
 * Runs of the scripts written without spaces: only these go through Intl.Segmenter, which cuts
 * about 1-2 MB/s (measured on XQuAD's Chinese and Thai), against tens of MB/s for the regex that
 * cuts the Latin words, digits and punctuation between them.
 */
const UNSPACED_RUN_RE =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+/gu;

function wordCutter(lang: string): (folded: string) => string[] {
  if (!SEGMENTED.has(lang)) return (folded) => folded.match(WORD_RE) ?? [];
  const segmenter = new Intl.Segmenter(lang, { granularity: 'word' });
  const segment = (run: string, out: string[]): void => {
    for (const s of segmenter.segment(run)) {
      if (!s.isWordLike) continue;
      for (const w of s.segment.match(WORD_RE) ?? []) out.push(w);
    }
  };
  return (folded) => {
    const out: string[] = [];
    let last = 0;
    for (const m of folded.matchAll(UNSPACED_RUN_RE)) {
      const at = m.index ?? 0;
      // Between runs: spaced words, digits and punctuation, cut as every other language's.
      if (at > last) for (const w of folded.slice(last, at).match(WORD_RE) ?? []) out.push(w);
      segment(m[0], out);
      last = at + m[0].length;
    }
    if (last < folded.length) for (const w of folded.slice(last).match(WORD_RE) ?? []) out.push(w);
    return out;
  };
}

/** Bounded memo: the same vocabulary is stemmed over and over (Zipf), stemming is the costly part. */
function memo(fn: (w: string) => string, limit = 200_000): (w: string) => string {
  let cache = new Map<string, string>();
  return (w) => {
    let r = cache.get(w);
    if (r === undefined) {
      r = fn(w);
      if (cache.size >= limit) cache = new Map();
      cache.set(w, r);
    }
    return r;
  };
}

function createAnalyzer(lang: string): Analyzer {
  const fold = folder(lang);
  const cut = wordCutter(lang);
  const words = (text: string): string[] => cut(fold(text));
  const raw = STEMMERS[lang];
  const stem = raw ? memo((w) => (/\p{L}/u.test(w) ? raw(w) || w : w)) : (w: string) => w;
  const iso = STOPWORDS_ISO[lang] ?? [];
  const stopwords = new Set(iso.flatMap((w) => words(w)));
  const frames = new Set(words(FRAMES[lang] ?? ''));
  const isStopword = (w: string): boolean => stopwords.has(w);
  const content = (ws: readonly string[], skip: ReadonlySet<string>): string[] => {
    const seen = new Set<string>();
    for (const w of ws) {
      if (stopwords.has(w) || skip.has(w) || LONE_LATIN_RE.test(w)) continue;
      seen.add(stem(w));
    }
    return [...seen];
  };
  const questionTerms = (question: string): string[] => {
    const ws = words(question);
    const terms = content(ws, frames);
    return terms.length ? terms : content(ws, new Set());
  };
  return {
    language: lang,
    words,
    stem,
    isStopword,
    indexTerms: (text) => words(text).map(stem),
    searchTerms: (question) => {
      const terms = questionTerms(question);
      return terms.length ? terms : [...new Set(words(question).map(stem))];
    },
    contentTerms: (text) => content(words(text), new Set()),
    questionTerms,
  };
}

const analyzers = new Map<string, Analyzer>();

/**
 * The analyzer of a language tag's primary language other than English (text.ts has English's;
 * `analyzerFor` there picks). A language without a stemmer here gets its stopwords when
 * stopwords-iso has them and no stemming.
 */
export function languageAnalyzer(tag: string): Analyzer {
  const lang = primaryLanguage(tag) || 'und';
  let a = analyzers.get(lang);
  if (!a) {
    a = createAnalyzer(lang);
    analyzers.set(lang, a);
  }
  return a;
}

/** Whether a language has a Snowball stemmer here. */
export function hasStemmer(tag: string): boolean {
  return primaryLanguage(tag) in STEMMERS;
}

/**
 * The text analysis every part of Parley shares (retrieval and its three engines, answers,
 * confidence, rerank, gap grouping), per language: content terms, question terms and coverage,
 * stemmed and folded words, search terms. English is analysed by english.ts (FTS5's Porter, a
 * hand-made stopword list and question frames, irregular word families); every other language
 * by languages.ts (Snowball stemmers, stopwords-iso, Intl.Segmenter). `analyzerFor(tag)` picks;
 * the functions below take an optional language tag and default to English. Words and stems are
 * cut in tokens.ts, sentences in sentences.ts, safe truncation in truncate.ts.
 *
 * Everything here is pure and deterministic.
 */
import { languageAnalyzer, primaryLanguage, type Analyzer } from './languages.js';
import { englishAnalyzer, englishContentTerms, englishQuestionTerms, STOPWORDS } from './english.js';
import { familyStem } from './word-forms.js';
import { stem, tokenize } from './tokens.js';

export type { Analyzer } from './languages.js';

/** Content terms of a question: frame words out (unless nothing else is left). */
export function questionTerms(question: string, lang?: string): string[] {
  if (lang && !isEnglish(lang)) return languageAnalyzer(lang).questionTerms(question);
  return englishQuestionTerms(question);
}

/** Tokenize, drop stopwords, stem (word families joined: word-forms.ts) and dedupe (first occurrence order). */
export function contentTerms(text: string, lang?: string): string[] {
  return lang && !isEnglish(lang) ? languageAnalyzer(lang).contentTerms(text) : englishContentTerms(text);
}

/** Every stemmed token of a text (stopwords included) — the side a question is matched against. */
function stemSet(text: string): Set<string> {
  return new Set(tokenize(text).map((t) => familyStem(stem(t))));
}

/** Share (0..1) of the question's content terms found, stemmed, in `text`; 0 if it has none. */
export function termCoverage(question: string, text: string, lang?: string): number {
  const terms = questionTerms(question, lang);
  if (terms.length === 0) return 0;
  const present = lang && !isEnglish(lang) ? new Set(languageAnalyzer(lang).indexTerms(text)) : stemSet(text);
  return terms.filter((t) => present.has(t)).length / terms.length;
}

/** Stemmed words of a text, stopwords kept, in order (the language's stemmer; English: Porter). */
export function stemmedWords(text: string, lang?: string): string[] {
  return lang && !isEnglish(lang) ? languageAnalyzer(lang).indexTerms(text) : tokenize(text).map(stem);
}

/** Whether a folded word is a stopword of the language (English by default). */
export function isStopword(word: string, lang?: string): boolean {
  return lang && !isEnglish(lang) ? languageAnalyzer(lang).isStopword(word) : STOPWORDS.has(word);
}

/** Folded words of a text in order (English: `tokenize`). */
export function wordsOf(text: string, lang?: string): string[] {
  return lang && !isEnglish(lang) ? languageAnalyzer(lang).words(text) : tokenize(text);
}

/** English, or no language given (the default everywhere). */
export function isEnglish(lang: string): boolean {
  const p = primaryLanguage(lang);
  return p === 'en' || p === '';
}

/**
 * The language answer-side analysis uses for a list of passages: the best passage's, when it
 * is not English (undefined = English, the default of every function here).
 */
export function languageOfPassages(passages: readonly { language?: string | null | undefined }[]): string | undefined {
  const l = passages[0]?.language;
  return l && !isEnglish(l) ? l : undefined;
}

/**
 * A per-text memo per language: `make(lang)` builds the memo of one language (lang undefined =
 * English), made on first use. A passage's analysis depends on its language as well as its text.
 */
export function memoByLanguage<T>(make: (lang: string | undefined) => (text: string) => T): (text: string, lang?: string) => T {
  const english = make(undefined);
  const others = new Map<string, (text: string) => T>();
  return (text, lang) => {
    if (!lang || isEnglish(lang)) return english(text);
    let m = others.get(lang);
    if (!m) others.set(lang, (m = make(lang)));
    return m(text);
  };
}

/** The analyzer of a BCP 47 tag's language: English for "en-*" and for no language. */
export function analyzerFor(tag: string | null | undefined): Analyzer {
  return !tag || isEnglish(tag) ? englishAnalyzer : languageAnalyzer(tag);
}

/**
 * The distinct terms a question searches for in knowledge of the given languages: the union of
 * each language's analysis (a German question over German and English documents searches both
 * German and English stems).
 */
export function searchTermsFor(question: string, languages: Iterable<string>): string[] {
  const out = new Set<string>();
  let any = false;
  for (const lang of languages) {
    any = true;
    for (const t of analyzerFor(lang).searchTerms(question)) out.add(t);
  }
  if (!any) for (const t of englishAnalyzer.searchTerms(question)) out.add(t);
  return [...out];
}

/**
 * The English analyzer: a hand-made stopword list, question frames and light verbs kept out of
 * matching, content terms joined by word family (word-forms.ts), and index terms exactly as
 * FTS5's `porter unicode61 remove_diacritics 2` cuts them. Every other language is analysed by
 * languages.ts; text.ts picks between them. Pure and deterministic.
 */
import type { Analyzer } from './languages.js';
import { familyStem } from './word-forms.js';
import { porterStem } from './porter.js';
import { ASCII_FTS_TOKEN_RE, ASCII_ONLY_RE, ftsTokens, splitCjk, stem, tokenize } from './tokens.js';

// ---------------------------------------------------------------------------
// Stopwords and content terms
// ---------------------------------------------------------------------------

/** English function words plus question words; never stemmed, compared to raw tokens. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren't arent as at be because been before " +
    "being below between both but by can can't cannot cant could couldn't couldnt did didn't didnt do does " +
    "doesn't doesnt doing don't dont down during each either else etc ever every few for from further " +
    "get gets got had hadn't has hasn't hasnt have haven't havent having he he'd he'll he's her here " +
    "here's hers herself him himself his how how's however i i'd i'll i'm i've id if im in into is isn't " +
    "isnt it it's its itself ive just let's lets many may me might more most much must mustn't my myself " +
    'need needs no nor not of off on once only or other ought our ours ourselves out over own please ' +
    "same shall shan't she she'd she'll she's should shouldn't so some such than that that's the their " +
    "theirs them themselves then there there's these they they'd they'll they're they've this those " +
    "through thus to too under until up upon us very via was wasn't we we'd we'll we're we've were " +
    "weren't what what's whats when when's where where's which while who who's whom whose why why's " +
    "will with won't would wouldn't yes yet you you'd you'll you're you've your yours yourself yourselves"
  ).split(' '),
);

/**
 * Words that frame a question rather than name its topic: "how many", "what year", "what type
 * of", "the name of", "Name the …". A passage answers "What year did the war end?" with "1648",
 * never with "year", so these stay out of matching on the question side (`questionTerms`,
 * retrieval's query terms). "many" and "much" are stopwords anyway.
 */
const FRAME_RES: readonly RegExp[] = [
  /\b(?:what|which)(?:\s+\w+)?\s+(?:years?|decades?|centur(?:y|ies)|months?|days?|dates?|types?|kinds?|sorts?|names?|forms?)(?:\s+of)?\b/gi,
  /\b(?:the\s+)?names?\s+(?:of|for)\b/gi,
  /^\s*name\b/i,
];

/**
 * Light verbs: "How long do refunds take?", "When will I get my money back?", "Can I make a
 * backup?". They carry the question's grammar, not its topic, and a page that uses them a lot
 * ("Standard delivery takes 3 to 7 days; express takes 1 to 2") must not win on them (issue 26).
 * Kept out of the search terms only (englishQueryWords): confidence reads them as today.
 */
const LIGHT_VERB_RE =
  /\b(?:tak(?:e|es|ing|en)|took|get(?:s|ting)?|got(?:ten)?|mak(?:e|es|ing)|made|go(?:es|ing|ne)?|went|happen(?:s|ed|ing)?)\b/gi;

/** A question with its frame words ("what year", "the name of") taken out. */
export function stripQuestionFrame(question: string): string {
  let q = question;
  for (const re of FRAME_RES)
    q = q.replace(re, (m) =>
      m.replace(/\b(?:years?|decades?|centur(?:y|ies)|months?|days?|dates?|types?|kinds?|sorts?|names?|forms?)\b/gi, ' '),
    );
  return q;
}

/** Content terms of an English question: frame words out (unless nothing else is left). */
export function englishQuestionTerms(question: string): string[] {
  const terms = englishContentTerms(stripQuestionFrame(question));
  return terms.length ? terms : englishContentTerms(question);
}

function isContentToken(token: string): boolean {
  if (STOPWORDS.has(token)) return false;
  // A lone Latin letter ("a", "s" from "it s") carries no meaning; lone CJK characters do.
  return !(token.length === 1 && /[a-z]/.test(token));
}

/** Tokenize, drop stopwords, stem (word families joined: word-forms.ts) and dedupe (first occurrence order). */
export function englishContentTerms(text: string): string[] {
  const seen = new Set<string>();
  for (const token of tokenize(text)) {
    if (!isContentToken(token)) continue;
    seen.add(familyStem(stem(token)));
  }
  return [...seen];
}

/**
 * A question's words as the search engines take them (English): stopwords and question frame
 * words ("what year", "the name of") dropped unless nothing else is left, possessives and
 * apostrophes split as FTS5 splits them, lone Latin letters dropped.
 */
export function englishQueryWords(text: string): string[] {
  const framed = tokenize(stripQuestionFrame(text).replace(LIGHT_VERB_RE, ' '));
  const tokens = [...new Set((framed.length ? framed : tokenize(text)).map((t) => t.replace(/"/g, '')).filter(Boolean))];
  const content = tokens.filter((t) => !STOPWORDS.has(t));
  const chosen = content.length ? content : tokens;
  // FTS5 splits words at apostrophes, so "powell's" quoted would be the phrase "powell s" and
  // match only the possessive: possessives lose their 's, other apostrophes split the word.
  // A lone Latin letter ("U.S." → u, s) matches everything and means nothing.
  const terms = chosen.flatMap((t) => t.replace(/'s$/, '').split("'")).filter((t) => t && !/^[a-z]$/.test(t));
  return [...new Set(terms.length ? terms : chosen)];
}

/**
 * English index terms, exactly as FTS5's `porter unicode61 remove_diacritics 2` cut them before
 * issue 25 (so English retrieval is unchanged): unicode61's words and folding, runs of Han and
 * kana split into characters, Porter.
 */
const englishStemCache = new Map<string, string>();
function englishIndexStem(piece: string): string {
  let s = englishStemCache.get(piece);
  if (s === undefined) {
    s = porterStem(piece);
    if (englishStemCache.size >= 500_000) englishStemCache.clear();
    englishStemCache.set(piece, s);
  }
  return s;
}
function englishIndexTerms(text: string): string[] {
  // ASCII text (most knowledge): ftsTokens' own fast path, and no token can hold Han or kana,
  // so splitCjk's per-token Unicode test is skipped (ingestion runs this on every chunk).
  if (ASCII_ONLY_RE.test(text)) {
    const tokens = text.toLowerCase().match(ASCII_FTS_TOKEN_RE);
    if (!tokens) return [];
    for (let i = 0; i < tokens.length; i++) tokens[i] = englishIndexStem(tokens[i] as string);
    return tokens;
  }
  const out: string[] = [];
  for (const token of ftsTokens(text)) {
    for (const piece of splitCjk(token)) out.push(englishIndexStem(piece));
  }
  return out;
}

export const englishAnalyzer: Analyzer = {
  language: 'en',
  words: tokenize,
  stem,
  isStopword: (w) => STOPWORDS.has(w),
  indexTerms: englishIndexTerms,
  searchTerms: (question) => [...new Set(englishIndexTerms(englishQueryWords(question).join(' ')))],
  contentTerms: englishContentTerms,
  questionTerms: (q) => englishQuestionTerms(q),
};

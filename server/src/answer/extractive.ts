/**
 * The offline ("extractive") answerer: builds a short answer out of the best sentences of
 * the retrieved passages, with no model call.
 *
 * Sentences are scored by how much of the question they cover (stemmed terms weighted by
 * rarity among the candidates), the passage's retrieval score, whether the passage's
 * headings match the question, and a little by position. The best few are chosen greedily
 * without near-duplicates, widened with the context they need (the sentence an "It ..."
 * refers to, the steps after a "To do X:"), put back in document order and rendered as
 * prose paragraphs, lists and code blocks.
 */
import { memoByText } from '../lib/memo.js';
import { answerTypeOf, findTypedSpan, type AnswerType } from './answer-type.js';
import { contentTerms, languageOfPassages, memoByLanguage, questionTerms, termCoverage } from '../text/text.js';
import { sentenceUnits, type SentenceUnit } from '../text/sentences.js';
import { truncateAtWord } from '../text/truncate.js';

export interface Passage {
  id: string;
  title: string;
  url: string | null;
  text: string;
  headingPath: string[];
  /** Relevance normalised to 0..1, best first. */
  score: number;
  /** The document the passage comes from (its title and url stand in when absent). */
  documentId?: string | undefined;
  /** The language of the passage's document (BCP 47); absent = English. */
  language?: string | undefined;
}

export interface ExtractiveAnswer {
  text: string;
  usedPassageIds: string[];
  /** termCoverage of the question by the answer text. */
  coverage: number;
}

/** Only the best few passages are read: lower ones are mostly noise for a short answer. */
const MAX_PASSAGES = 5;
const MAX_SENTENCES = 5;
/** Sentences must reach this share of the best one's score and relevance (looser for the second pick). */
const KEEP_RATIO = 0.5;
const SECOND_RATIO = 0.4;
/** Term-set Jaccard similarity above which a sentence repeats one already chosen. */
const DUPLICATE_JACCARD = 0.6;
/** A "To configure it:" sentence brings along at most this many following list items. */
const MAX_FOLLOWING_ITEMS = 8;
/** …or the table rows that follow it (its header included). */
const MAX_FOLLOWING_ROWS = 12;
/** …or the one short line that follows it (an address, a command, a value). */
const FOLLOWING_LINE_CHARS = 200;

/** `typed`: a sentence holding a span of the type the question asks for (a year for "When…"). */
export const WEIGHTS = { relevance: 1, passage: 0.3, heading: 0.2, support: 0.5, position: 0.05, typed: 0.3 };
/**
 * A sentence whose passage covers much less of the question than the best-supported passage
 * is off-topic even when it shares a rare word ("embed" in a Discord embed sentence, for a
 * question about embedding the widget): it may not join the answer.
 */
const MIN_SUPPORT_RATIO = 0.6;

/** Openers that lean on the previous sentence ("It expires after 90 days."). */
/** A sentence that says how to do what the one before it asked for. */
const CONTINUATION_RE = /^(?:to do (?:that|this|so)|here's how|here is how|this (?:is|can be) done (?:by|in|from|through)|you can do (?:that|this|so) (?:by|in|from|through))\b/i;
/** A continuation that is only an introduction ("Here's how."): the steps after it are the answer. */
const INTRODUCES_RE = /^here(?:'s| is) how\b/i;
const CONNECTOR_RE = /^(?:it|its|it's|this|that|these|those|they|them|their|he|she|his|her|however|but|also|then|so|thus|hence|therefore|otherwise|instead|additionally|moreover|furthermore|alternatively|afterwards|as a result|in that case|in this case|for example|for instance|likewise|similarly|which|and|or|such)\b/i;

/** A short unpunctuated prose line is a title ("Rotating API keys"), not an answer. */
const TITLE_MAX_WORDS = 8;

function empty(): ExtractiveAnswer {
  return { text: '', usedPassageIds: [], coverage: 0 };
}

interface Sentence {
  rank: number; // the passage's rank among the passages read
  index: number; // position among the passage's sentence units
  unit: SentenceUnit;
  terms: ReadonlySet<string>;
  score: number;
  matched: number; // question terms the sentence itself contains
  relevance: number; // IDF-weighted share of the question the sentence itself covers
  support: number; // IDF-weighted share of the question its whole passage (title, headings, text) covers
  typed: boolean; // holds a span of the answer type the question asks for, not taken from the question
}

interface ReadPassage { passage: Passage; sentences: Sentence[]; headingTerms: ReadonlySet<string> }

/** Passages by score (stable: input order breaks ties), the top few with any text. */
function rankPassages(passages: Passage[]): Passage[] {
  return passages
    .map((passage, order) => ({ passage, order }))
    .filter(({ passage }) => typeof passage.text === 'string' && passage.text.trim() !== '')
    .sort((a, b) => (b.passage.score || 0) - (a.passage.score || 0) || a.order - b.order)
    .slice(0, MAX_PASSAGES)
    .map(({ passage }) => passage);
}

/**
 * Sentence splitting and stemming of a passage, by its text. Popular passages come back for
 * question after question; their analysis is the same every time (read-only once built).
 */
const analyse = memoByLanguage((lang) => memoByText((text) => sentenceUnits(text).map((unit) => ({ unit, terms: new Set(contentTerms(unit.text, lang)) as ReadonlySet<string> })), 2_000));
const headingTermsOf = memoByLanguage((lang) => memoByText((text): ReadonlySet<string> => new Set(contentTerms(text, lang)), 2_000));

function readPassage(passage: Passage, rank: number): ReadPassage {
  const sentences = analyse(passage.text, passage.language).map(({ unit, terms }, index): Sentence => ({
    rank, index, unit, terms, score: 0, matched: 0, relevance: 0, support: 0, typed: false,
  }));
  const headingTerms = headingTermsOf(`${passage.headingPath.join(' ')} ${passage.title}`, passage.language);
  return { passage, sentences, headingTerms };
}

function isCandidate(s: Sentence): boolean {
  return (s.unit.kind === 'prose' || s.unit.kind === 'list' || s.unit.kind === 'table') && s.terms.size > 0;
}

/** Rarity weight of each question term among the candidate sentences (BM25-style IDF). */
function idfWeights(question: string[], candidates: Sentence[]): Map<string, number> {
  const n = candidates.length;
  const weights = new Map<string, number>();
  for (const term of question) {
    const df = candidates.filter((s) => s.terms.has(term)).length;
    weights.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return weights;
}

function scoreSentences(question: string[], read: ReadPassage[], type: AnswerType | null = null, questionText = ''): Sentence[] {
  const candidates = read.flatMap((r) => r.sentences.filter(isCandidate));
  const idf = idfWeights(question, candidates);
  const totalIdf = question.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) || 1;
  const support = read.map((r) => {
    // A term counts once if the headings or any sentence of the passage hold it.
    const inPassage = (t: string): boolean => r.headingTerms.has(t) || r.sentences.some((x) => x.terms.has(t));
    return question.reduce((sum, t) => sum + (inPassage(t) ? idf.get(t) ?? 0 : 0), 0) / totalIdf;
  });
  for (const s of candidates) {
    const r = read[s.rank] as ReadPassage;
    s.support = support[s.rank] ?? 0;
    const hits = question.filter((t) => s.terms.has(t));
    const headingHits = question.filter((t) => r.headingTerms.has(t)).length;
    s.matched = hits.length;
    s.relevance = hits.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) / totalIdf;
    s.typed = type !== null && hits.length > 0 && findTypedSpan(s.unit.text, type, questionText, r.passage.language) !== null;
    s.score =
      WEIGHTS.relevance * s.relevance +
      WEIGHTS.passage * clamp01(r.passage.score) +
      WEIGHTS.heading * (headingHits / question.length) +
      WEIGHTS.support * s.support +
      WEIGHTS.position / (1 + s.index) +
      (s.typed ? WEIGHTS.typed : 0);
  }
  return candidates;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

function byScore(a: Sentence, b: Sentence): number {
  return b.score - a.score || a.rank - b.rank || a.index - b.index;
}

function byPosition(a: Sentence, b: Sentence): number {
  return a.rank - b.rank || a.index - b.index;
}

/**
 * Greedy pick: best first, skipping weak, repeated and over-budget sentences. "Weak" is
 * judged on both the total score and the sentence's own relevance, since the passage
 * score lifts every sentence of a good passage alike.
 */
function pickSentences(candidates: readonly Sentence[], maxLength: number, read: ReadPassage[], questionIdf: QuestionIdf | null = null): Sentence[] {
  const matching = candidates.filter((s) => s.matched > 0);
  // Title-like lines match questions densely but say nothing; use them only when nothing else matches.
  const sentences = matching.filter((s) => !isTitleLike(s.unit));
  const pool = sentences.length > 0 ? sentences : matching;
  const bestSupport = Math.max(0, ...pool.map((s) => s.support));
  const ordered = pool.filter((s) => s.support >= bestSupport * MIN_SUPPORT_RATIO).sort(byScore);
  const matched = ordered[0];
  if (!matched) return [];
  // The question a page asks itself ("Forgot your password?") matches best and answers nothing:
  // what it is asked for is what follows it. An FAQ entry's question is its heading: when a
  // question heading matches the visitor's question better than any sentence does, the answer
  // is what the page wrote under it.
  const best = answerUnderQuestionHeading(matched, read, questionIdf) ?? answerAfterQuestion(matched, read) ?? matched;
  const chosen: Sentence[] = [best];
  let length = best.unit.text.length;
  for (const s of ordered) {
    if (chosen.length >= MAX_SENTENCES) break;
    // The answer speaks from one passage (one section): a sentence of another passage that
    // shares a word ("embed" in the Discord doc, for embedding the widget) is another topic.
    if (s === best || s === matched || s.rank !== best.rank || isQuestion(s.unit)) continue;
    const ratio = chosen.length === 1 ? SECOND_RATIO : KEEP_RATIO;
    if (s.score < best.score * ratio || s.relevance < best.relevance * ratio) continue;
    if (chosen.some((c) => jaccard(c.terms, s.terms) > DUPLICATE_JACCARD)) continue;
    if (length + 1 + s.unit.text.length > maxLength) continue;
    chosen.push(s);
    length += 1 + s.unit.text.length;
  }
  return chosen;
}

/** A sentence that asks rather than tells: a page's own question (an FAQ entry, a symptom). */
function isQuestion(unit: SentenceUnit): boolean {
  return unit.kind !== 'code' && unit.kind !== 'table' && /[?\uff1f\u061f]["')\]*_`\u201d\u2019]*$/.test(unit.text.trim());
}

/** The question's terms and their rarity among the candidate sentences (scoreSentences). */
export interface QuestionIdf { terms: readonly string[]; idf: ReadonlyMap<string, number> }

/**
 * Share of the question's rarity a question heading must cover to be the matched FAQ entry; on
 * the help-center tuning products 0.5 finds the entries whose heading paraphrases the question
 * ("What does it cost to use Let's Encrypt? Is it really free?" for "is lets encrypt really
 * free or is there some catch") without taking over where a sentence matches as well.
 */
const QUESTION_HEADING_MIN = 0.5;
/** Passages (best first) whose question headings are considered. */
const QUESTION_HEADING_PASSAGES = 3;

/**
 * The first sentence a page wrote under its own question heading (its deepest heading path
 * entry, or a heading inside the passage), when that heading covers more of the question's
 * rarity than the best-matching sentence: carrying the heading's coverage and the matched
 * sentence's score. Null when no question heading matches that well.
 */
function answerUnderQuestionHeading(matched: Sentence, read: ReadPassage[], q: QuestionIdf | null): Sentence | null {
  if (!q || !q.terms.length) return null;
  const total = q.terms.reduce((sum, t) => sum + (q.idf.get(t) ?? 0), 0);
  if (total <= 0) return null;
  const coverage = (text: string, lang: string | undefined): number => {
    const terms = headingTermsOf(text, lang);
    return q.terms.reduce((sum, t) => sum + (terms.has(t) ? q.idf.get(t) ?? 0 : 0), 0) / total;
  };
  const found: { best: { sentence: Sentence; coverage: number } | null } = { best: null };
  const consider = (heading: string, r: ReadPassage, from: number): void => {
    if (!/[?\uff1f\u061f]\s*$/.test(heading)) return;
    const c = coverage(heading, r.passage.language);
    if (c < QUESTION_HEADING_MIN || c <= matched.relevance || (found.best && c <= found.best.coverage)) return;
    for (let i = from; i < r.sentences.length; i++) {
      const next = r.sentences[i] as Sentence;
      if (next.unit.kind === 'heading') return;
      if (isReadable(next) && !isQuestion(next.unit) && !isTitleLike(next.unit)) {
        found.best = { sentence: next, coverage: c };
        return;
      }
    }
  };
  for (const r of read.slice(0, QUESTION_HEADING_PASSAGES)) {
    const deepest = r.passage.headingPath[r.passage.headingPath.length - 1];
    if (deepest) consider(deepest, r, 0);
    r.sentences.forEach((s, i) => { if (s.unit.kind === 'heading') consider(displayText(s.unit), r, i + 1); });
  }
  if (!found.best) return null;
  const { sentence, coverage: c } = found.best;
  return { ...sentence, score: Math.max(matched.score, sentence.score), matched: Math.max(matched.matched, sentence.matched), relevance: c, support: Math.max(matched.support, sentence.support), typed: matched.typed || sentence.typed, terms: new Set([...sentence.terms, ...headingTermsOf(`${sentence.unit.text}`, read[sentence.rank]?.passage.language)]) };
}

/** Questions in a row a page may ask before it answers ("Do you use VPNs…? And do none of…?"). */
const MAX_QUESTIONS_IN_A_ROW = 3;

/**
 * The answer a page gives right after a question of its own: the first following sentence of
 * the passage that is not a question, carrying the question's scores (it is the question that
 * matched) and both sentences' terms. Null when `s` is not a question or nothing answers it.
 */
function answerAfterQuestion(s: Sentence, read: ReadPassage[]): Sentence | null {
  if (!isQuestion(s.unit)) return null;
  const sentences = (read[s.rank] as ReadPassage).sentences;
  for (let i = s.index + 1; i < sentences.length && i <= s.index + MAX_QUESTIONS_IN_A_ROW; i++) {
    const next = sentences[i] as Sentence;
    if (next.unit.kind === 'heading') return null;
    if (isQuestion(next.unit)) continue;
    return { ...next, score: s.score, matched: s.matched, relevance: s.relevance, support: s.support, typed: s.typed, terms: new Set([...s.terms, ...next.terms]) };
  }
  return null;
}

/** Adds what chosen sentences need to make sense: their antecedent, or the steps they introduce. */
function addContext(chosen: Sentence[], read: ReadPassage[]): Sentence[] {
  const selected = new Set(chosen);
  for (const s of chosen) {
    const sentences = (read[s.rank] as ReadPassage).sentences;
    const prev = sentences[s.index - 1];
    if (prev && CONNECTOR_RE.test(displayText(s.unit)) && isReadable(prev)) selected.add(prev);
    if (/:\s*$/.test(s.unit.text)) for (const next of following(sentences, s.index)) selected.add(next);
    const next = continuationOf(s, read);
    if (next) {
      selected.add(next);
      if (/:\s*$/.test(next.unit.text) || INTRODUCES_RE.test(displayText(next.unit))) for (const after of following(sentences, next.index)) selected.add(after);
    }
  }
  return [...selected].sort(byPosition);
}

/**
 * The sentence after `s` when it says how to do what `s` asked for ("…must be set to a value your
 * device supports. To do that, go to …"): an answer that stops before it stops mid-instruction.
 */
function continuationOf(s: Sentence, read: ReadPassage[]): Sentence | null {
  const next = (read[s.rank] as ReadPassage).sentences[s.index + 1];
  return next && next.unit.kind === 'prose' && CONTINUATION_RE.test(displayText(next.unit)) ? next : null;
}

function isTitleLike(unit: SentenceUnit): boolean {
  return unit.kind === 'prose' && !endsSentence(unit.text) && unit.text.split(/\s+/).length <= TITLE_MAX_WORDS;
}

function isReadable(s: Sentence): boolean {
  return s.unit.kind === 'prose' || s.unit.kind === 'list' || s.unit.kind === 'table';
}

/** The code block or list right after an introducing sentence ("Run:" / "To rotate a key:"). */
function following(sentences: Sentence[], index: number): Sentence[] {
  const first = sentences[index + 1];
  if (!first) return [];
  if (first.unit.kind === 'code') return [first];
  // "The endpoint is:" then the address on its own line; "…vary by operating system:" then the table.
  if (first.unit.kind === 'prose') return first.unit.text.length <= FOLLOWING_LINE_CHARS ? [first] : [];
  if (first.unit.kind === 'table') {
    const rows: Sentence[] = [];
    for (let i = index + 1; i < sentences.length && rows.length < MAX_FOLLOWING_ROWS; i++) {
      const row = sentences[i] as Sentence;
      if (row.unit.kind !== 'table') break;
      rows.push(row);
    }
    return rows;
  }
  if (first.unit.kind !== 'list') return [];
  const items: Sentence[] = [];
  const blocks = new Set<number>();
  for (let i = index + 1; i < sentences.length; i++) {
    const s = sentences[i] as Sentence;
    if (s.unit.kind !== 'list') break;
    blocks.add(s.unit.block);
    if (blocks.size > MAX_FOLLOWING_ITEMS) break;
    items.push(s);
  }
  return items;
}

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

const LIST_MARKER_RE = /^\s*(?:[-*+\u2022]|(\d{1,9})[.)])\s+/;

/** A sentence without markdown block syntax: heading marks, quote marks, list markers. */
function displayText(unit: SentenceUnit): string {
  if (unit.kind === 'code') return unit.text;
  return unit.text
    .replace(/^\s*#{1,6}\s+/, '')
    .replace(/^(?:\s*>)+\s?/, '')
    .replace(LIST_MARKER_RE, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function endsSentence(text: string): boolean {
  return /[.!?:;\u2026\u3002\uff01\uff1f]["')\]*_`\u201d\u2019]*$/.test(text);
}

type OutBlock =
  | { type: 'prose'; group: number; parts: string[] }
  | { type: 'list'; items: Array<{ key: string; marker: string; text: string }> }
  | { type: 'lines'; lines: string[] }
  | { type: 'code'; text: string };

/** One list item's marker: its number for ordered lists ("2."), a dash otherwise. */
function listMarker(s: Sentence, isItemStart: boolean): string {
  const number = isItemStart ? LIST_MARKER_RE.exec(s.unit.text)?.[1] : undefined;
  return number ? `${number}.` : '-';
}

/**
 * Lays the selected sentences out: prose from the top passage forms the first paragraph,
 * prose from the others the second; lists stay lists (a lone item reads as prose), code
 * stays fenced, table rows stay on their own lines.
 */
function layout(selected: Sentence[]): OutBlock[] {
  const listItems = new Set(selected.filter((s) => s.unit.kind === 'list').map((s) => `${s.rank}:${s.unit.block}`));
  const firstRank = selected[0]?.rank ?? 0;
  const blocks: OutBlock[] = [];
  for (const s of selected) {
    const text = displayText(s.unit);
    if (!text) continue;
    const last = blocks[blocks.length - 1];
    if (s.unit.kind === 'code') {
      blocks.push({ type: 'code', text });
    } else if (s.unit.kind === 'table') {
      if (last?.type === 'lines') last.lines.push(text);
      else blocks.push({ type: 'lines', lines: [text] });
    } else if (s.unit.kind === 'list' && listItems.size > 1) {
      const key = `${s.rank}:${s.unit.block}`;
      const isItemStart = LIST_MARKER_RE.test(s.unit.text);
      const item = last?.type === 'list' ? last.items[last.items.length - 1] : undefined;
      if (last?.type === 'list' && item?.key === key) item.text += ` ${text}`;
      else if (last?.type === 'list') last.items.push({ key, marker: listMarker(s, isItemStart), text });
      else blocks.push({ type: 'list', items: [{ key, marker: listMarker(s, isItemStart), text }] });
    } else {
      const group = s.rank === firstRank ? 0 : 1;
      if (last?.type === 'prose' && last.group === group) last.parts.push(text);
      else blocks.push({ type: 'prose', group, parts: [text] });
    }
  }
  return blocks;
}

function renderBlock(block: OutBlock): string {
  switch (block.type) {
    case 'prose':
      // Sentences lifted from lists or lines may lack a full stop; joined as prose they need one.
      return block.parts.map((p, i) => (i < block.parts.length - 1 && !endsSentence(p) ? `${p}.` : p)).join(' ');
    case 'list':
      return block.items.map((item) => `${item.marker} ${item.text}`).join('\n');
    case 'lines':
      return block.lines.join('\n');
    case 'code':
      return block.text;
  }
}

/**
 * Questions that want steps or a list rather than one fact: "How do I…", "How can we…",
 * "What are the steps…", "Which options are there?", "List…". They get the full composition
 * (several sentences, the steps or code block a sentence introduces).
 */
const PROCEDURAL_RE = /^\s*(?:how\s+(?:do|can|could|should|would|to)\b|how\s+does\s+(?:one|a user)\b|what\s+(?:are|were)\s+the\s+steps\b|steps?\b|list\b|(?:which|what)\b(?:\s+[\w-]+){1,3}\s+(?:are\s+there|exist|are\s+available)\b)|\b(?:steps?|set\s*up|install|configure)\b/i;

export function isProcedural(question: string): boolean {
  return PROCEDURAL_RE.test(question);
}

/**
 * A factoid answer: the best sentence, with the one its pronoun leans on (`antecedent`) when both
 * fit in `antecedentChars`; a second one joins when it scores at least `second` of the best and
 * all fit in `pairChars`. Chosen on the tuning articles (tune-answer.ts, explore.ts): gold span in
 * 70.5 % of answerable questions at 205 characters mean with an unbounded antecedent and a
 * 200-character pair; the antecedent bought 0.4 points for 11 characters, a 250-character pair
 * 0.6 for 5, so the antecedent now stays within 200 characters and the pair within 250: 70.9 %
 * at 200 characters. A 300-character pair reaches 71.8 % at 211 characters, past the
 * 200-character target; the sentence weights barely move it (68-69 %).
 */
export const FACTOID = { maxChars: 400, second: 0.7, pairChars: 250, antecedent: true, antecedentChars: 200 };

/**
 * The factoid answer: the best sentence alone (with the sentence its pronoun leans on), the
 * span of the asked type in **bold**. Null when the best sentence is a list item, a table row
 * or introduces steps: the full composition renders those.
 */
function factoidAnswer(question: string, candidates: Sentence[], read: ReadPassage[], type: AnswerType | null, maxLength: number, questionIdf: QuestionIdf): ExtractiveAnswer | null {
  const [best, next] = pickSentences(candidates, Math.min(maxLength, FACTOID.maxChars), read, questionIdf);
  if (!best || best.unit.kind !== 'prose' || /:\s*$/.test(best.unit.text)) return null;
  const selected = [best];
  const prev = (read[best.rank] as ReadPassage).sentences[best.index - 1];
  if (FACTOID.antecedent && prev && CONNECTOR_RE.test(displayText(best.unit)) && prev.unit.kind === 'prose' &&
    prev.unit.text.length + 1 + best.unit.text.length <= FACTOID.antecedentChars) selected.unshift(prev);
  if (next && next.unit.kind === 'prose' && next.score >= best.score * FACTOID.second &&
    selected.reduce((n, s) => n + s.unit.text.length + 1, 0) + next.unit.text.length <= FACTOID.pairChars) {
    selected.push(next);
    selected.sort(byPosition);
  }
  // A sentence that introduces what follows ("…vary by operating system:", "To do that, go to…")
  // needs it: the full composition adds it.
  if (selected.some((s) => /:\s*$/.test(s.unit.text) || continuationOf(s, read))) return null;
  const parts = selected.map((s) => displayText(s.unit));
  const last = parts.length - 1;
  const span = type ? findTypedSpan(parts[last] as string, type, question, (read[best.rank] as ReadPassage).passage.language) : null;
  if (span) parts[last] = `${(parts[last] as string).slice(0, span.start)}**${span.text}**${(parts[last] as string).slice(span.end)}`;
  const text = truncateAtWord(parts.map((p, i) => (i < last && !endsSentence(p) ? `${p}.` : p)).join(' '), maxLength);
  if (!text) return null;
  return { text, usedPassageIds: [(read[best.rank] as ReadPassage).passage.id], coverage: termCoverage(question, text, (read[best.rank] as ReadPassage).passage.language) };
}

/** What the last composeExtractiveAnswer call saw, for the confidence model (same passages array). */
export interface AnswerAnalysis {
  question: string;
  /** The chosen (best) sentence's IDF-weighted coverage of the question, its passage's support and rank. */
  relevance: number;
  support: number;
  rank: number;
  /** The best sentence holds a span of the asked type. */
  typed: boolean;
  /** Stemmed terms of the best sentence with its passage's title and headings. */
  sentenceTerms: ReadonlySet<string>;
  /** The best sentence as written. */
  sentence: string;
  /** The next-best sentence of the same passage / the best sentence's score (0 when none). */
  runnerUpInPassage: number;
  /** The answer's text ('' until composed). */
  answerText: string;
  type: AnswerType | null;
  factoid: boolean;
}
const analyses = new WeakMap<readonly Passage[], AnswerAnalysis>();

/** The analysis composeExtractiveAnswer left for these passages and this question, if any. */
export function answerAnalysisOf(question: string, passages: readonly Passage[]): AnswerAnalysis | null {
  const a = analyses.get(passages);
  return a && a.question === question ? a : null;
}

/**
 * Answers `question` from `passages` by extraction: a factoid question gets its best sentence
 * with the asked span in bold; a procedural one ("How do I…") the best sentences with the
 * steps or code they introduce. Returns an empty answer when nothing in the passages shares a
 * content term with the question. Deterministic.
 */
export function composeExtractiveAnswer(question: string, passages: Passage[], opts: { maxLength: number }): ExtractiveAnswer {
  if (!Array.isArray(passages) || passages.length === 0) return empty();
  const lang = languageOfPassages(passages);
  const terms = questionTerms(question, lang);
  if (terms.length === 0) return empty();
  const read = rankPassages(passages).map(readPassage);
  const maxLength = Math.max(0, Math.floor(opts.maxLength));
  const procedural = isProcedural(question);
  const type = procedural ? null : answerTypeOf(question, lang);
  const candidates = scoreSentences(terms, read, type, question);
  const questionIdf: QuestionIdf = { terms, idf: idfWeights(terms, candidates) };
  const chosen = pickSentences(candidates, maxLength, read, questionIdf);
  const best = chosen[0];
  if (!best) return empty();
  let samePassageNext = 0;
  for (const s of candidates) if (s.matched > 0 && s !== best && s.rank === best.rank) samePassageNext = Math.max(samePassageNext, s.score);
  const analysis: AnswerAnalysis = {
    question, relevance: best.relevance, support: best.support, rank: best.rank, typed: best.typed, type,
    sentenceTerms: new Set([...best.terms, ...(read[best.rank] as ReadPassage).headingTerms]), sentence: best.unit.text, answerText: '', runnerUpInPassage: best.score > 0 ? samePassageNext / best.score : 0,
    factoid: false,
  };
  analyses.set(passages, analysis);

  if (!procedural) {
    const factoid = factoidAnswer(question, candidates, read, type, maxLength, questionIdf);
    if (factoid) {
      analysis.factoid = true;
      analysis.answerText = factoid.text;
      return factoid;
    }
  }
  const selected = addContext(chosen, read);
  const text = truncateAtWord(layout(selected).map(renderBlock).join('\n\n'), maxLength);
  if (!text) return empty();
  analysis.answerText = text;
  const usedPassageIds = [...new Set(selected.map((s) => (read[s.rank] as ReadPassage).passage.id))];
  return { text, usedPassageIds, coverage: termCoverage(question, text, lang) };
}

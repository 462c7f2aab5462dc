/**
 * Which sentences make the extractive answer: the best few chosen greedily without weak or
 * near-duplicate ones (a page's own question gives way to what it wrote after it or under it),
 * then widened with the context they need (the sentence an "It ..." refers to, the steps after
 * a "To do X:", the "To do that, …" that finishes an instruction), in document order.
 */
import type { SentenceUnit } from '../text/sentences.js';
import { displayText, endsSentence } from './extractive-render.js';
import { headingTermsOf, type QuestionIdf, type ReadPassage, type Sentence } from './sentence-scoring.js';

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
/**
 * A sentence whose passage covers much less of the question than the best-supported passage
 * is off-topic even when it shares a rare word ("embed" in a Discord embed sentence, for a
 * question about embedding the widget): it may not join the answer.
 */
const MIN_SUPPORT_RATIO = 0.6;

/** A sentence that says how to do what the one before it asked for. */
const CONTINUATION_RE =
  /^(?:to do (?:that|this|so)|here's how|here is how|this (?:is|can be) done (?:by|in|from|through)|you can do (?:that|this|so) (?:by|in|from|through))\b/i;
/** A continuation that is only an introduction ("Here's how."): the steps after it are the answer. */
const INTRODUCES_RE = /^here(?:'s| is) how\b/i;
/** Openers that lean on the previous sentence ("It expires after 90 days."). */
export const CONNECTOR_RE =
  /^(?:it|its|it's|this|that|these|those|they|them|their|he|she|his|her|however|but|also|then|so|thus|hence|therefore|otherwise|instead|additionally|moreover|furthermore|alternatively|afterwards|as a result|in that case|in this case|for example|for instance|likewise|similarly|which|and|or|such)\b/i;

/** A short unpunctuated prose line is a title ("Rotating API keys"), not an answer. */
const TITLE_MAX_WORDS = 8;

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

function byScore(a: Sentence, b: Sentence): number {
  return b.score - a.score || a.rank - b.rank || a.index - b.index;
}

export function byPosition(a: Sentence, b: Sentence): number {
  return a.rank - b.rank || a.index - b.index;
}

/**
 * Greedy pick: best first, skipping weak, repeated and over-budget sentences. "Weak" is
 * judged on both the total score and the sentence's own relevance, since the passage
 * score lifts every sentence of a good passage alike.
 */
export function pickSentences(
  candidates: readonly Sentence[],
  maxLength: number,
  read: ReadPassage[],
  questionIdf: QuestionIdf | null = null,
): Sentence[] {
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
    return q.terms.reduce((sum, t) => sum + (terms.has(t) ? (q.idf.get(t) ?? 0) : 0), 0) / total;
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
    r.sentences.forEach((s, i) => {
      if (s.unit.kind === 'heading') consider(displayText(s.unit), r, i + 1);
    });
  }
  if (!found.best) return null;
  const { sentence, coverage: c } = found.best;
  return {
    ...sentence,
    score: Math.max(matched.score, sentence.score),
    matched: Math.max(matched.matched, sentence.matched),
    relevance: c,
    support: Math.max(matched.support, sentence.support),
    typed: matched.typed || sentence.typed,
    terms: new Set([...sentence.terms, ...headingTermsOf(`${sentence.unit.text}`, read[sentence.rank]?.passage.language)]),
  };
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
    return {
      ...next,
      score: s.score,
      matched: s.matched,
      relevance: s.relevance,
      support: s.support,
      typed: s.typed,
      terms: new Set([...s.terms, ...next.terms]),
    };
  }
  return null;
}

/** Adds what chosen sentences need to make sense: their antecedent, or the steps they introduce. */
export function addContext(chosen: Sentence[], read: ReadPassage[]): Sentence[] {
  const selected = new Set(chosen);
  for (const s of chosen) {
    const sentences = (read[s.rank] as ReadPassage).sentences;
    const prev = sentences[s.index - 1];
    if (prev && CONNECTOR_RE.test(displayText(s.unit)) && isReadable(prev)) selected.add(prev);
    if (/:\s*$/.test(s.unit.text)) for (const next of following(sentences, s.index)) selected.add(next);
    const next = continuationOf(s, read);
    if (next) {
      selected.add(next);
      if (/:\s*$/.test(next.unit.text) || INTRODUCES_RE.test(displayText(next.unit)))
        for (const after of following(sentences, next.index)) selected.add(after);
    }
  }
  return [...selected].sort(byPosition);
}

/**
 * The sentence after `s` when it says how to do what `s` asked for ("…must be set to a value your
 * device supports. To do that, go to …"): an answer that stops before it stops mid-instruction.
 */
export function continuationOf(s: Sentence, read: ReadPassage[]): Sentence | null {
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

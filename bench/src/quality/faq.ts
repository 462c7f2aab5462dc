/**
 * The help-center development set (`../shared/data/faq/PRODUCT.json`, issue 26): loading,
 * the fixed product split, and the scoring rules of that set's README, as pure functions so a
 * test can check them on hand-made replies.
 *
 * Scoring (README "How to score"): the response and the expected strings are normalized (lower
 * case, whitespace collapsed, markdown `*` and backticks removed, typographic quotes folded). An
 * answerable question is *right* when the system answered and the response holds an expected
 * string, *wrong* when it answered without one, a *fallback* when it declined; a fallback that
 * offers the gold page's title is a *helpful fallback*. An unanswerable question should fall back.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface FaqDocument {
  title: string;
  format: 'markdown' | 'text';
  content: string;
  path?: string;
}

export interface FaqQuestion {
  question: string;
  answers: string[];
  doc?: string;
  unanswerable?: boolean;
}

export interface FaqProduct {
  product: string;
  site: string;
  documents: FaqDocument[];
  questions: FaqQuestion[];
}

export type FaqHalf = 'tuning' | 'heldOut';

/**
 * The README's suggested split, fixed before any figure was seen: tune on these four products,
 * report on the other four. A product not named here (a hidden or added file) is held out.
 */
export const FAQ_TUNING_PRODUCTS: readonly string[] = ['audacity', 'cryptomator', 'letsencrypt', 'plausible'];

export function faqHalfOf(product: string): FaqHalf {
  return FAQ_TUNING_PRODUCTS.includes(product) ? 'tuning' : 'heldOut';
}

/** Problems that make a file unusable, as sentences (empty when it is valid). */
export function validateFaqProduct(p: unknown, file: string): string[] {
  const problems: string[] = [];
  const o = p as Partial<FaqProduct> | null;
  if (!o || typeof o !== 'object') return [`${file}: not a JSON object`];
  if (typeof o.product !== 'string' || !o.product) problems.push(`${file}: "product" must be a non-empty string`);
  if (!Array.isArray(o.documents) || !o.documents.length) problems.push(`${file}: "documents" must be a non-empty array`);
  if (!Array.isArray(o.questions)) problems.push(`${file}: "questions" must be an array`);
  if (problems.length) return problems;
  const titles = new Set<string>();
  for (const [i, d] of (o.documents as FaqDocument[]).entries()) {
    if (typeof d.title !== 'string' || typeof d.content !== 'string') problems.push(`${file}: documents[${i}] needs a title and content`);
    else if (titles.has(d.title)) problems.push(`${file}: documents[${i}].title "${d.title}" is not unique`);
    else titles.add(d.title);
  }
  for (const [i, q] of (o.questions as FaqQuestion[]).entries()) {
    if (typeof q.question !== 'string' || !Array.isArray(q.answers)) problems.push(`${file}: questions[${i}] needs a question and answers`);
    else if (!q.unanswerable && (!q.doc || !titles.has(q.doc))) problems.push(`${file}: questions[${i}].doc names no document`);
    else if (!q.unanswerable && !q.answers.length) problems.push(`${file}: questions[${i}] is answerable but has no answers`);
  }
  return problems;
}

/** Every `*.json` product file of a folder, sorted by name, validated. */
export function loadFaqDir(dir: string): FaqProduct[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (!files.length) throw new Error(`${dir} holds no product files (*.json)`);
  return files.map((f) => {
    const file = path.join(dir, f);
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    const problems = validateFaqProduct(parsed, f);
    if (problems.length) throw new Error(problems.slice(0, 10).join('\n'));
    const p = parsed as FaqProduct;
    return { ...p, site: typeof p.site === 'string' ? p.site : '' };
  });
}

/** The README's normalization, applied to responses and expected strings alike. */
export function normalizeFaqText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[*`]/g, '')
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

export function holdsExpected(response: string, answers: readonly string[]): boolean {
  const r = normalizeFaqText(response);
  return answers.some((a) => r.includes(normalizeFaqText(a)));
}

/** What the system did with one question, as the visitor saw it (the assistant's own threshold). */
export interface FaqReply {
  response: string;
  fallback: boolean;
  confidence: number;
  /** Titles the reply offers: its sources (and, on a fallback, the pages it links). */
  offeredTitles: string[];
  /** Distinct document titles retrieved for the question, best first. */
  retrievedTitles: string[];
  /** The answer text with the threshold at 0 (for the confidence AUROC). */
  unthresholdedResponse: string;
}

export type FaqOutcome = 'right' | 'wrong' | 'fallback';

export interface FaqJudged {
  product: string;
  half: FaqHalf;
  question: FaqQuestion;
  reply: FaqReply;
  answerable: boolean;
  outcome: FaqOutcome;
  /** A fallback that offers the gold page (answerable only). */
  helpfulFallback: boolean;
  /** 1-based rank of the gold page among retrieved titles (answerable only). */
  goldRank: number | null;
  /** The unthresholded answer holds an expected string (answerable only). */
  rightAtZero: boolean;
}

export function judgeFaq(product: string, question: FaqQuestion, reply: FaqReply): FaqJudged {
  const answerable = !question.unanswerable;
  const outcome: FaqOutcome = reply.fallback
    ? 'fallback'
    : answerable && holdsExpected(reply.response, question.answers)
      ? 'right'
      : 'wrong';
  const gold = question.doc ?? null;
  const rank = answerable && gold ? reply.retrievedTitles.indexOf(gold) : -1;
  return {
    product,
    half: faqHalfOf(product),
    question,
    reply,
    answerable,
    outcome,
    helpfulFallback: answerable && reply.fallback && gold !== null && reply.offeredTitles.includes(gold),
    goldRank: rank < 0 ? null : rank + 1,
    rightAtZero: answerable && holdsExpected(reply.unthresholdedResponse, question.answers),
  };
}

const share = (n: number, d: number): number => (d ? Math.round((n / d) * 1000) / 1000 : NaN);

/** The table for a set of judged questions (rates over answerable questions unless named). */
export function summarizeFaq(items: readonly FaqJudged[], auroc: (pos: number[], neg: number[]) => number) {
  const answerable = items.filter((j) => j.answerable);
  const unanswerable = items.filter((j) => !j.answerable);
  const count = (xs: readonly FaqJudged[], f: (j: FaqJudged) => boolean): number => xs.filter(f).length;
  const right = count(answerable, (j) => j.outcome === 'right');
  const wrong = count(answerable, (j) => j.outcome === 'wrong');
  const fallback = count(answerable, (j) => j.outcome === 'fallback');
  const helpful = count(answerable, (j) => j.helpfulFallback);
  const positives = items.filter((j) => j.rightAtZero).map((j) => j.reply.confidence);
  const negatives = items.filter((j) => !j.rightAtZero).map((j) => j.reply.confidence);
  return {
    questions: items.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    right: share(right, answerable.length),
    useful: share(right + helpful, answerable.length),
    wrong: share(wrong, answerable.length),
    fallbackAnswerable: share(fallback, answerable.length),
    helpfulFallback: share(helpful, answerable.length),
    fallbackUnanswerable: share(
      count(unanswerable, (j) => j.outcome === 'fallback'),
      unanswerable.length,
    ),
    /** Every confident answer that does not settle the question, unanswerable ones included, over all questions. */
    wrongOverall: share(wrong + count(unanswerable, (j) => j.outcome !== 'fallback'), items.length),
    aurocRightVsRest: Math.round(auroc(positives, negatives) * 1000) / 1000,
    recallAt1: share(
      count(answerable, (j) => j.goldRank === 1),
      answerable.length,
    ),
    recallAt5: share(
      count(answerable, (j) => j.goldRank !== null && j.goldRank <= 5),
      answerable.length,
    ),
    meanAnswerChars:
      Math.round(
        (answerable.filter((j) => !j.reply.fallback).reduce((s, j) => s + j.reply.response.length, 0) /
          Math.max(1, answerable.filter((j) => !j.reply.fallback).length)) *
          10,
      ) / 10,
  };
}

export type FaqSummary = ReturnType<typeof summarizeFaq>;

const pct = (x: number): string => (Number.isNaN(x) ? '-' : `${Math.round(x * 1000) / 10} %`);

/** [measure, tuning, held-out, issue 26 target] rows. */
export function faqRows(t: FaqSummary, h: FaqSummary): [string, string, string, string][] {
  return [
    [
      'questions (answerable / unanswerable)',
      `${t.questions} (${t.answerable} / ${t.unanswerable})`,
      `${h.questions} (${h.answerable} / ${h.unanswerable})`,
      '',
    ],
    ['answer holds the right fact', pct(t.right), pct(h.right), '≥ 60 %'],
    ['useful: right, or a fallback that links the gold page', pct(t.useful), pct(h.useful), '≥ 85 %'],
    ['answered, but wrong', pct(t.wrong), pct(h.wrong), '≤ 10 %'],
    ['answerable questions that fall back', pct(t.fallbackAnswerable), pct(h.fallbackAnswerable), ''],
    ['  of which link the gold page', pct(t.helpfulFallback), pct(h.helpfulFallback), ''],
    ['unanswerable questions that fall back', pct(t.fallbackUnanswerable), pct(h.fallbackUnanswerable), '≥ 80 %'],
    ['wrong answers over all questions (unanswerable answered included)', pct(t.wrongOverall), pct(h.wrongOverall), ''],
    ['confidence AUROC, right answer vs the rest', String(t.aurocRightVsRest), String(h.aurocRightVsRest), '≥ 0.80'],
    ['gold page recall@1 / @5', `${t.recallAt1} / ${t.recallAt5}`, `${h.recallAt1} / ${h.recallAt5}`, '— / ≥ 0.95'],
    ['mean answer length (answered answerable)', `${t.meanAnswerChars} chars`, `${h.meanAnswerChars} chars`, ''],
  ];
}

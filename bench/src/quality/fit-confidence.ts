/**
 * `tsx bench/src/quality/fit-confidence.ts [file.json …] [--write]`: fits the extractive
 * confidence model (server/src/answer/confidence-model.ts) on the TUNING articles of SQuAD v2
 * files (the held-out articles are never read). By default two: the shared public SQuAD 2.0
 * sample (Wikipedia, adversarial unanswerables written from the paragraphs) and the project's
 * own bench/data/quality/parley-qa.json (help-centre-like questions, unanswerable ones about
 * what the knowledge does not hold): fitted on the public sample alone the model never sees a
 * question the knowledge does not cover and learns to ignore coverage.
 *
 * Every tuning question goes through the answer path as the chat service runs it (retriever,
 * six passages scored relative to the best, the extractive provider); its features are
 * confidenceFeatures(), its label whether the answer holds a gold span (unanswerable questions:
 * never). A logistic regression (standardised features, L2 penalty, Newton's method, weights
 * kept non-negative) gives P(right). The operating point mapped to the default threshold 0.35 is chosen so that at most
 * 15 % of the answerable questions of an article left out of the fit fall back (issue 14's target), mean + standard
 * error over the tuning articles (see the operating point below; --plain: 15 % of the tuning questions in-sample).
 */
import fs from 'node:fs';
import path from 'node:path';
import { confidenceFeatures, coverageGate, FEATURE_NAMES } from '../../../server/src/answer/confidence.js';
import type { Passage } from '../../../server/src/answer/extractive.js';
import { createExtractiveProvider } from '../../../server/src/answer/providers/extractive.js';
import type { AnswerRequest } from '../../../server/src/answer/providers/types.js';
import { assistantConfigSchema } from '../../../server/src/assistants/schemas.js';
import { chunkUrl } from '../../../server/src/knowledge/retrieval.js';
import { REPO_ROOT } from '../../../server/src/paths.js';
import { openQualityCorpus } from './harness.js';
import { DEFAULT_DATASET, SHARED_SAMPLE_FILE } from './build-dataset.js';
import { auroc, containsSpan } from './metrics.js';

/** Largest share of answerable questions allowed to fall back at the operating point. */
export const MAX_ANSWERABLE_FALLBACK = 0.15;
/** L2 penalty on the standardised weights (not the intercept). */
const L2 = 1;

export interface Sample { features: number[]; right: boolean; answerable: boolean; answered: boolean; /** `${file}#${article index}` */ article: string }

/** Features and labels of every question of the chosen half, through the real answer path. */
export async function collectSamples(file: string, half: 'tuning' | 'heldOut'): Promise<Sample[]> {
  const corpus = await openQualityCorpus(file);
  const provider = createExtractiveProvider();
  const defaults = assistantConfigSchema.parse({ name: 'x' });
  const samples: Sample[] = [];
  try {
    for (const q of corpus.questions.filter((x) => corpus.halfOf(x) === half)) {
      const chunks = await corpus.retriever.retrieve(q.question, corpus.kbs, 6);
      const best = chunks.reduce((m, c) => Math.max(m, c.score), 0);
      const passages = chunks.map((c): Passage => ({ id: String(c.chunkId), title: c.page ? `${c.title}, p. ${c.page}` : c.title, url: chunkUrl(c), text: c.text, headingPath: c.headingPath, score: best > 0 ? c.score / best : 0 }));
      const request = { question: q.question, passages, history: [], systemPrompt: '', variables: {}, language: defaults.language, maxResponseLength: defaults.maxResponseLength, model: defaults.model } as unknown as AnswerRequest;
      let text = '';
      let coverage: number | null = null;
      for await (const e of provider.answer(request, {})) {
        if (e.type === 'delta') text += e.text;
        else coverage = e.coverage ?? null;
      }
      samples.push({ features: confidenceFeatures(q.question, passages, coverage, { everyFeature: true }), right: q.answerable && containsSpan(text, q.answers), answerable: q.answerable, answered: text !== '', article: `${path.basename(file)}#${q.article}` });
    }
  } finally {
    corpus.close();
  }
  return samples;
}

/** Solves A x = b (Gaussian elimination with partial pivoting; A is small and positive definite). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs((m[r] as number[])[c] as number) > Math.abs((m[p] as number[])[c] as number)) p = r;
    [m[c], m[p]] = [m[p] as number[], m[c] as number[]];
    const pivot = (m[c] as number[])[c] as number;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = ((m[r] as number[])[c] as number) / pivot;
      for (let k = c; k <= n; k++) (m[r] as number[])[k] = ((m[r] as number[])[k] as number) - f * ((m[c] as number[])[k] as number);
    }
  }
  return m.map((row, i) => (row[n] as number) / (row[i] as number));
}

/**
 * Logistic regression with non-negative weights (every feature is oriented so that more means
 * "more likely right"): fit, drop the features whose weight came out negative (collinear
 * leftovers that would extrapolate badly), refit, until none is.
 */
export function fitNonNegative(x: number[][], y: number[], weights: number[] = y.map(() => 1), l2 = L2) {
  const d = (x[0] ?? []).length;
  let active = Array.from({ length: d }, (_, j) => j);
  for (;;) {
    const fit = fitLogistic(x.map((r) => active.map((j) => r[j] as number)), y, weights, l2);
    const negative = active.filter((_, k) => (fit.weights[k] as number) < 0);
    if (!negative.length) {
      const full = { means: new Array<number>(d).fill(0), scales: new Array<number>(d).fill(1), weights: new Array<number>(d).fill(0), intercept: fit.intercept };
      active.forEach((j, k) => { full.means[j] = fit.means[k] as number; full.scales[j] = fit.scales[k] as number; full.weights[j] = fit.weights[k] as number; });
      return full;
    }
    active = active.filter((j) => !negative.includes(j));
  }
}

export function fitLogistic(x: number[][], y: number[], weights: number[] = y.map(() => 1), l2 = L2) {
  const d = (x[0] ?? []).length;
  const means = Array.from({ length: d }, (_, j) => x.reduce((s, r) => s + (r[j] as number), 0) / x.length);
  const scales = means.map((mu, j) => Math.sqrt(x.reduce((s, r) => s + ((r[j] as number) - mu) ** 2, 0) / x.length) || 1);
  const z = x.map((r) => [1, ...r.map((v, j) => (v - (means[j] as number)) / (scales[j] as number))]);
  let w = new Array<number>(d + 1).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    z.forEach((row, i) => {
      const p = 1 / (1 + Math.exp(-row.reduce((s, v, j) => s + v * (w[j] as number), 0)));
      const sw = weights[i] ?? 1;
      const err = sw * ((y[i] as number) - p);
      const wt = sw * p * (1 - p);
      for (let j = 0; j <= d; j++) {
        grad[j] = (grad[j] as number) + err * (row[j] as number);
        for (let k = 0; k <= d; k++) (hess[j] as number[])[k] = ((hess[j] as number[])[k] as number) + wt * (row[j] as number) * (row[k] as number);
      }
    });
    for (let j = 1; j <= d; j++) {
      grad[j] = (grad[j] as number) - l2 * (w[j] as number);
      (hess[j] as number[])[j] = ((hess[j] as number[])[j] as number) + l2;
    }
    const step = solve(hess, grad);
    w = w.map((v, j) => v + (step[j] as number));
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return { means, scales, intercept: w[0] as number, weights: w.slice(1) };
}

const sigmoid = (v: number): number => 1 / (1 + Math.exp(-v));

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const given = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const files = given.length ? given : [SHARED_SAMPLE_FILE, DEFAULT_DATASET];
  for (const f of files) if (!fs.existsSync(f)) throw new Error(`${f} not found`);
  const file = files.map((f) => path.basename(f)).join(' + ');
  const samples: Sample[] = [];
  const weights: number[] = [];
  const perFile: Sample[][] = [];
  for (const f of files) perFile.push(await collectSamples(f, 'tuning'));
  // Each file weighs the same in the fit, however many questions it has.
  const largest = Math.max(...perFile.map((x) => x.length));
  for (const list of perFile) for (const s of list) { samples.push(s); weights.push(largest / list.length); }
  const fitOn = (keep: (s: Sample) => boolean) => {
    const idx = samples.map((_, i) => i).filter((i) => keep(samples[i] as Sample));
    const m = fitNonNegative(idx.map((i) => (samples[i] as Sample).features), idx.map((i) => ((samples[i] as Sample).right ? 1 : 0)), idx.map((i) => weights[i] as number));
    return (f: number[]): number => coverageGate(f) * sigmoid(m.intercept + f.reduce((s, v, j) => s + (m.weights[j] as number) * ((v - (m.means[j] as number)) / (m.scales[j] as number)), 0));
  };
  const model = fitNonNegative(samples.map((s) => s.features), samples.map((s) => (s.right ? 1 : 0)), weights);
  const prob = (f: number[]): number => coverageGate(f) * sigmoid(model.intercept + f.reduce((s, v, j) => s + (model.weights[j] as number) * ((v - (model.means[j] as number)) / (model.scales[j] as number)), 0));
  const p = samples.map((s) => (s.answered ? prob(s.features) : 0));
  /** The probability below which `share` of the listed probabilities lie (ties fall back too). */
  const pointAt = (probs: number[], share: number): number => {
    const sorted = [...probs].sort((a, b) => a - b);
    return Number(((sorted[Math.floor(share * sorted.length)] as number) - 1e-9).toFixed(6));
  };
  // Operating point: the probability at which a share q of the tuning answerable questions fall
  // back. On articles the fit has not seen (another topic, other wording) more fall back; how
  // many more is measured on the tuning articles alone, leaving one public-sample article out at
  // a time: the model is refitted without it, the point set at share q of the rest, and the
  // article's own answerable fallback read (printed for q = 15 %, 14 %, … 5 %). Left-out articles
  // spread widely (6-23 % at q = 15 %), so the written point uses the largest q whose mean
  // left-out fallback plus its standard error (over articles) stays within
  // MAX_ANSWERABLE_FALLBACK: the target is about articles nobody tuned on. `--plain` writes q =
  // MAX_ANSWERABLE_FALLBACK instead (the previous rule: 15 % in-sample gave 19.9 % held-out).
  const publicArticles = [...new Set(samples.filter((s) => s.article.startsWith(`${path.basename(files[0] as string)}#`)).map((s) => s.article))];
  const folds = publicArticles.map((article) => {
    const foldProb = fitOn((s) => s.article !== article);
    const fp = samples.map((s) => (s.answered ? foldProb(s.features) : 0));
    return { article, inFold: fp.filter((_, i) => (samples[i] as Sample).answerable && (samples[i] as Sample).article !== article), out: fp.filter((_, i) => (samples[i] as Sample).answerable && (samples[i] as Sample).article === article) };
  });
  const shares = Array.from({ length: 11 }, (_, k) => Number((MAX_ANSWERABLE_FALLBACK - k / 100).toFixed(2)));
  const leftOut = shares.map((share) => {
    const rates = folds.map((f) => { const point = pointAt(f.inFold, share); return f.out.filter((v) => v < point).length / (f.out.length || 1); });
    const meanRate = rates.reduce((a, b) => a + b, 0) / (rates.length || 1);
    const sd = Math.sqrt(rates.reduce((a, r) => a + (r - meanRate) ** 2, 0) / Math.max(1, rates.length - 1));
    const standardError = sd / Math.sqrt(rates.length || 1);
    return { share, meanLeftOutFallback: Number(meanRate.toFixed(4)), standardError: Number(standardError.toFixed(4)), perArticle: rates.map((r) => Number(r.toFixed(3))) };
  });
  const chosenShare = process.argv.includes('--plain')
    ? MAX_ANSWERABLE_FALLBACK
    : leftOut.find((x) => x.meanLeftOutFallback + x.standardError <= MAX_ANSWERABLE_FALLBACK)?.share ?? (shares[shares.length - 1] as number);
  const answerableP = samples.map((s, i) => ({ s, p: p[i] as number })).filter((x) => x.s.answerable).map((x) => x.p).sort((a, b) => a - b);
  const operatingPoint = pointAt(answerableP, chosenShare);
  const right = samples.map((s, i) => ({ s, p: p[i] as number }));
  const report = {
    file, samples: samples.length, right: samples.filter((s) => s.right).length,
    aurocRightVsRest: auroc(right.filter((x) => x.s.right).map((x) => x.p), right.filter((x) => !x.s.right).map((x) => x.p)),
    aurocAnswerable: auroc(right.filter((x) => x.s.answerable).map((x) => x.p), right.filter((x) => !x.s.answerable).map((x) => x.p)),
    operatingPoint, operatingShare: chosenShare, leaveOneArticleOut: leftOut,
    atOperatingPoint: {
      answerableFallback: answerableP.filter((v) => v < operatingPoint).length / answerableP.length,
      goldSpan: right.filter((x) => x.s.right && x.p >= operatingPoint).length / answerableP.length,
      unanswerableFallback: right.filter((x) => !x.s.answerable && x.p < operatingPoint).length / right.filter((x) => !x.s.answerable).length,
    },
    weights: Object.fromEntries(FEATURE_NAMES.map((n, j) => [n, Number((model.weights[j] as number).toFixed(3))])),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  // The coverage floor (confidence.ts COVERAGE_FLOOR) cannot be learnt from SQuAD, where every
  // question is about the corpus; this shows what each floor would cost on the tuning articles.
  const coverageAt = FEATURE_NAMES.indexOf('topPassageCoverage');
  const answerAt = FEATURE_NAMES.indexOf('answerCoverage');
  const rawP = samples.map((s) => (s.answered ? prob(s.features) / (coverageGate(s.features) || 1) : 0));
  for (const floor of [0.01, 0.25, 0.34, 0.5, 0.6, 0.75]) {
    const covered = (f: number[]): number => Math.min(f[coverageAt] as number, f[answerAt] as number);
    const gated = samples.map((s, i) => (rawP[i] as number) * Math.min(1, covered(s.features) / floor));
    const gp = gated.map((v, i) => ({ s: samples[i] as Sample, p: v }));
    process.stdout.write(`floor ${floor}: AUROC right vs rest ${auroc(gp.filter((x) => x.s.right).map((x) => x.p), gp.filter((x) => !x.s.right).map((x) => x.p)).toFixed(4)}, answerable vs not ${auroc(gp.filter((x) => x.s.answerable).map((x) => x.p), gp.filter((x) => !x.s.answerable).map((x) => x.p)).toFixed(4)}, right answers below full coverage gate ${gp.filter((x) => x.s.right && covered(x.s.features) < floor).length}\n`);
  }
  if (process.argv.includes('--write')) {
    const r6 = (v: number): number => Number(v.toFixed(6));
    const body = `/**
 * The extractive confidence model: logistic regression over the standardised features of
 * confidence.ts (FEATURE_NAMES, same order), P(the answer holds a gold span). Written by
 * \`tsx bench/src/quality/fit-confidence.ts --write\` from the tuning articles of
 * ${file} (${samples.length} questions, ${report.right} answered right; the held-out
 * articles are never read). Do not edit by hand: refit.
 *
 * In-sample: AUROC right vs rest ${report.aurocRightVsRest.toFixed(3)}, answerable vs unanswerable ${report.aurocAnswerable.toFixed(3)}.
 * operatingPoint: the highest P(right) at which at most ${Math.round(chosenShare * 100)} % of the tuning answerable
 * questions fall back${chosenShare < MAX_ANSWERABLE_FALLBACK ? ` (the largest share whose leave-one-article-out fallback, mean + standard error, is at most ${MAX_ANSWERABLE_FALLBACK * 100} %)` : ''}; confidence.ts maps it onto the default threshold 0.35.
 */
export const CONFIDENCE_MODEL = {
  features: ${JSON.stringify(FEATURE_NAMES)} as readonly string[],
  means: ${JSON.stringify(model.means.map(r6))} as readonly number[],
  scales: ${JSON.stringify(model.scales.map(r6))} as readonly number[],
  weights: ${JSON.stringify(model.weights.map(r6))} as readonly number[],
  intercept: ${r6(model.intercept)},
  operatingPoint: ${operatingPoint},
};
`;
    fs.writeFileSync(path.join(REPO_ROOT, 'server', 'src', 'answer', 'confidence-model.ts'), body);
    process.stdout.write('wrote server/src/answer/confidence-model.ts\n');
  }
}

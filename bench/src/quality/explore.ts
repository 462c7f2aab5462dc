/**
 * `tsx bench/src/quality/explore.ts tuning.json [own.json] [--features] [--wrong] [--adv]`: answer
 * and confidence figures of the current code on passages written by dump-passages.ts (TUNING
 * articles only), in seconds instead of minutes: gold span at threshold 0, mean length, and for
 * the shipped model, a refit and a leave-one-article-out refit on these samples: AUROC right vs
 * rest, answerable vs unanswerable, gold span at 5-20 % answerable fallback. WEIGHTS_JSON /
 * FACTOID_JSON override the answerer's weights. --features: each feature's own AUROCs; --wrong:
 * wrong answers whose passage was right; --adv: the most confident unanswerable questions.
 */
import fs from 'node:fs';
import { confidenceFeatures, coverageGate, FEATURE_NAMES, answerProbability } from '../../../server/src/answer/confidence.js';
import type { Passage } from '../../../server/src/answer/extractive.js';
import { answerAnalysisOf, composeExtractiveAnswer, FACTOID } from '../../../server/src/answer/extractive.js';
import { WEIGHTS } from '../../../server/src/answer/sentence-scoring.js';
import { sectionLeadAnswer } from '../../../server/src/answer/providers/extractive.js';
import { termCoverage } from '../../../server/src/text/text.js';
import { fitNonNegative } from './fit-confidence.js';
import { auroc, containsSpan } from './metrics.js';

interface Row {
  id: string;
  question: string;
  answerable: boolean;
  answers: string[];
  article: number;
  goldTop: boolean;
  passages: Passage[];
}
const [tuningFile, ownFile] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const load = (f: string | undefined): Row[] => (f ? (JSON.parse(fs.readFileSync(f, 'utf8')) as Row[]) : []);
const sets = [load(tuningFile).map((r) => ({ ...r, src: 'squad' })), load(ownFile).map((r) => ({ ...r, src: 'own' }))];

function answer(q: string, passages: Passage[]) {
  let r = composeExtractiveAnswer(q, passages, { maxLength: 1000 });
  if (!r.text) {
    const lead = sectionLeadAnswer(q, passages, 1000);
    if (lead)
      r = {
        text: lead.text,
        usedPassageIds: [lead.passageId],
        coverage: termCoverage(q, `${passages[0]?.headingPath.join(' ')} ${lead.text}`),
      };
  }
  return r;
}

if (process.env.WEIGHTS_JSON) Object.assign(WEIGHTS, JSON.parse(process.env.WEIGHTS_JSON));
if (process.env.FACTOID_JSON) Object.assign(FACTOID, JSON.parse(process.env.FACTOID_JSON));
const t0 = performance.now();
const samples = sets.flatMap((rows) =>
  rows.map((r) => {
    const a = answer(r.question, r.passages);
    const features = a.text ? confidenceFeatures(r.question, r.passages, a.coverage, { everyFeature: true }) : FEATURE_NAMES.map(() => 0);
    return {
      r,
      text: a.text,
      features,
      answered: a.text !== '',
      right: r.answerable && containsSpan(a.text, r.answers),
      shipped: a.text ? answerProbability(features) : 0,
    };
  }),
);
const ms = performance.now() - t0;
const squad = samples.filter((s) => s.r.src === 'squad');
const ans = squad.filter((s) => s.r.answerable);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
process.stdout.write(
  `squad tuning: ${squad.length} questions (${ans.length} answerable), ${(ms / samples.length).toFixed(3)} ms/question answer+features\n`,
);
process.stdout.write(
  `gold span @0 ${pct(ans.filter((s) => s.right).length / ans.length)}; with gold paragraph top-1 ${pct(ans.filter((s) => s.right && s.r.goldTop).length / ans.filter((s) => s.r.goldTop).length)}; mean chars ${(ans.reduce((n, s) => n + s.text.length, 0) / ans.length).toFixed(0)}\n`,
);

const own = samples.filter((s) => s.r.src === 'own' && s.r.answerable);
if (own.length)
  process.stdout.write(
    `own set: gold span @0 ${pct(own.filter((s) => s.right).length / own.length)}, mean chars ${(own.reduce((n, s) => n + s.text.length, 0) / own.length).toFixed(0)}\n`,
  );
const sig = (v: number) => 1 / (1 + Math.exp(-v));
const largest = Math.max(...sets.map((s) => s.length));
const w = samples.map((s) => largest / (sets[s.r.src === 'squad' ? 0 : 1] as Row[]).length);
const fitOn = (idx: number[]) => {
  const m = fitNonNegative(
    idx.map((i) => samples[i]!.features),
    idx.map((i) => (samples[i]!.right ? 1 : 0)),
    idx.map((i) => w[i]!),
  );
  return {
    m,
    p: (f: number[]) =>
      coverageGate(f) * sig(m.intercept + f.reduce((s, v, j) => s + m.weights[j]! * ((v - m.means[j]!) / m.scales[j]!), 0)),
  };
};
const all = samples.map((_, i) => i);
const full = fitOn(all);
process.stdout.write(
  `weights ${JSON.stringify(Object.fromEntries(FEATURE_NAMES.map((n, j) => [n, Number(full.m.weights[j]!.toFixed(3))])))}\n`,
);
// Leave one squad article out: each squad question scored by a model fitted without its article.
const articles = [...new Set(squad.map((s) => s.r.article))];
const cv = new Map<(typeof samples)[number], number>();
for (const a of articles) {
  const fit = fitOn(all.filter((i) => !(samples[i]!.r.src === 'squad' && samples[i]!.r.article === a)));
  for (const s of squad) if (s.r.article === a) cv.set(s, s.answered ? fit.p(s.features) : 0);
}
const report = (name: string, p: (s: (typeof samples)[number]) => number) => {
  const right = squad.filter((s) => s.right).map(p);
  const rest = squad.filter((s) => !s.right).map(p);
  const un = squad.filter((s) => !s.r.answerable).map(p);
  const ap = ans.map(p).sort((x, y) => x - y);
  const at = (share: number) => {
    const point = (ap[Math.floor(share * ap.length)] ?? 0) - 1e-9;
    return `fb ${pct(share)}: gold ${pct(ans.filter((s) => s.right && p(s) >= point).length / ans.length)}, unans fb ${pct(un.filter((v) => v < point).length / un.length)}`;
  };
  process.stdout.write(
    `${name}: AUROC right/rest ${auroc(right, rest).toFixed(3)}, ans/unans ${auroc(ans.map(p), un).toFixed(3)}; ${[0.05, 0.1, 0.15, 0.2].map(at).join('; ')}\n`,
  );
};
report('shipped model', (s) => s.shipped);
report('in-sample refit', (s) => (s.answered ? full.p(s.features) : 0));
report('leave-article-out', (s) => cv.get(s) ?? 0);
if (process.argv.includes('--features')) {
  const answered = squad.filter((s) => s.answered);
  FEATURE_NAMES.forEach((n, j) => {
    const f = (s: (typeof samples)[number]) => s.features[j]!;
    process.stdout.write(
      `${n.padEnd(24)} right/rest ${auroc(answered.filter((s) => s.right).map(f), answered.filter((s) => !s.right).map(f)).toFixed(3)}  ans/unans ${auroc(answered.filter((s) => s.r.answerable).map(f), answered.filter((s) => !s.r.answerable).map(f)).toFixed(3)}\n`,
    );
  });
}
if (process.argv.includes('--adv')) {
  for (const s of squad
    .filter((x) => !x.r.answerable)
    .sort((a, b) => b.shipped - a.shipped)
    .slice(0, 25)) {
    const a = answerAnalysisOf(s.r.question, s.r.passages);
    process.stdout.write(`${s.shipped.toFixed(2)} Q: ${s.r.question}\n     S: ${a?.sentence.slice(0, 220)}\n`);
  }
}
if (process.argv.includes('--wrong')) {
  // Wrong answers although the gold paragraph came first: where sentence choice, not retrieval, missed.
  const wrong = ans.filter((s) => s.r.goldTop && !s.right);
  process.stdout.write(`${wrong.length} wrong answers with the gold paragraph first; the first 30:\n`);
  for (const s of wrong.slice(0, 30)) {
    const gold =
      s.r.passages[0]?.text.split(/(?<=[.!?])\s+/).find((x) => containsSpan(x, s.r.answers)) ??
      '(no sentence of the top passage holds a gold span)';
    process.stdout.write(
      `Q: ${s.r.question}\n  gold: ${s.r.answers[0]}\n  got:  ${s.text.replace(/\*\*/g, '').slice(0, 220)}\n  gold sentence: ${gold.slice(0, 220)}\n`,
    );
  }
}

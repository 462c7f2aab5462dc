/**
 * Retrieval and answer quality on a SQuAD v2 file (default bench/data/quality/parley-qa.json):
 * every paragraph becomes a document of a fresh knowledge base (a temp SQLite file through the
 * server's own migrations, store and retriever), every question is asked, and the report gives
 *
 * - retrieval: paragraph recall@1, recall@5 and MRR over answerable questions (the gold
 *   paragraph is the one the question belongs to), from `retriever.retrieve(q, kbs, 5)`;
 * - answers: the real chat service (`createChatService`, extractive provider, an assistant with
 *   the schema's defaults except `confidenceThreshold: 0`, so the answer text is always seen):
 *   the share of answers containing a gold span, and each answer's `confidence`;
 * - calibration: AUROC of confidence for answerable vs unanswerable questions, a threshold
 *   sweep (precision/recall of answering, accuracy of answer-vs-fallback) and the threshold
 *   with the best balanced accuracy on a calibration half (articles 0, 2, 4…), checked on the
 *   held-out half (articles 1, 3, 5…);
 * - MiniSearch and Orama on the same paragraphs and questions: recall and query latency as
 *   ratios to Parley's, timed interleaved in the same loop after a warm-up.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createExtractiveProvider } from '../../../server/src/answer/providers/extractive.js';
import { assistantConfigSchema } from '../../../server/src/assistants/schemas.js';
import { createAssistantStore } from '../../../server/src/assistants/service.js';
import { createChatService } from '../../../server/src/chat/service.js';
import { createConversationStore } from '../../../server/src/conversations/store.js';
import { migrate } from '../../../server/src/db/migrate.js';
import { openDb } from '../../../server/src/db/open.js';
import { createWriteBatcher } from '../../../server/src/db/write-batcher.js';
import { createRetriever, type RetrievedChunk } from '../../../server/src/knowledge/retrieval.js';
import { createKnowledgeStore } from '../../../server/src/knowledge/store.js';
import { systemClock } from '../../../server/src/lib/clock.js';
import { createWebhookEvents } from '../../../server/src/webhooks/events.js';
import { round, summarize } from '../stats.js';
import { DEFAULT_DATASET } from './build-dataset.js';
import { miniSearchEngine, oramaEngine, type Engine } from './engines.js';
import { auroc, chooseThreshold, containsSpan, meanReciprocalRank, rankOf, recallAt, sweep, thresholdRow, type Judged, type ThresholdRow } from './metrics.js';
import { flatten, loadSquad, validateSquad, type FlatQuestion } from './squad.js';

export interface QualityOptions {
  /** A SQuAD v2 file; default PARLEY_QUALITY_FILE or bench/data/quality/parley-qa.json. */
  file?: string | undefined;
  /** Timed passes over all questions per engine (after one warm-up pass). */
  repeats?: number;
  /** Engines besides Parley's default retriever (Parley on FTS5, MiniSearch, MiniSearch + Porter, Orama, Orama + stopwords); default on. */
  engines?: boolean;
  /** Failing questions kept in the JSON (each kind). */
  examples?: number;
}

/** Parley's retrieval depth for the metrics and timings. */
const K = 5;

interface Asked {
  q: FlatQuestion;
  half: 'calibration' | 'heldOut';
  /** Gold paragraph's 1-based rank among the distinct paragraphs of the top-5 chunks. */
  rank: number | null;
  top: number[];
  answer: string;
  confidence: number;
  correct: boolean;
}

export interface EngineResult {
  name: string;
  setup: string;
  recallAt1: number;
  recallAt5: number;
  mrr: number;
  latencyMs: { p50: number; p99: number; mean: number; n: number };
  /** This engine's figure / Parley's (1 for Parley itself). */
  vsParley: { recallAt1: number; recallAt5: number; mrr: number; p50: number; p99: number };
}

const ratio = (a: number, b: number): number => (b ? round(a / b, 2) : NaN);
const r3 = (x: number): number => round(x, 3);

export async function runQualityBench(opts: QualityOptions = {}) {
  const file = path.resolve(opts.file ?? process.env.PARLEY_QUALITY_FILE ?? DEFAULT_DATASET);
  const repeats = opts.repeats ?? 3;
  const examples = opts.examples ?? 30;
  const dataset = loadSquad(file);
  const problems = validateSquad(dataset);
  if (problems.length) throw new Error(`${file} is not valid SQuAD v2:\n${problems.slice(0, 10).join('\n')}`);
  const { paragraphs, questions } = flatten(dataset);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-quality-'));
  const db = openDb(path.join(dir, 'quality.db'));
  try {
    migrate(db);
    const at = new Date().toISOString();
    const organizationId = 'org_quality';
    db.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES (?, 'Quality', 'enterprise', ?)").run(organizationId, at);
    const store = createKnowledgeStore(db);
    const kb = store.createKb(organizationId, { name: 'Quality corpus', description: null }, at);
    const paragraphOfDocument = new Map<string, number>();
    const t0 = performance.now();
    db.transaction(() => {
      for (const p of paragraphs) {
        const doc = store.addDocument(kb.id, { title: p.title, content: p.context, format: 'text', url: null }, at);
        paragraphOfDocument.set(doc.id, p.index);
      }
    })();
    const ingestMs = performance.now() - t0;
    const chunks = (db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;

    const retriever = createRetriever(db);
    const kbs = [{ id: kb.id, priority: 5 }];
    const paragraphsOf = (hits: RetrievedChunk[]): number[] => [...new Set(hits.map((c) => paragraphOfDocument.get(c.documentId) as number))];
    const parley: Engine<RetrievedChunk[]> = {
      name: 'Parley',
      setup: 'createRetriever(db).retrieve(question, [{ id: kb, priority: 5 }], 5): the server default (BM25; in memory below its size limit, else FTS5)',
      query: (question, limit) => retriever.retrieve(question, kbs, limit),
      ids: (hits, limit) => paragraphsOf(hits).slice(0, limit),
    };
    // The same retriever forced onto SQLite FTS5 (what bases too big for memory use).
    const fts = createRetriever(db, { memoryIndexMaxChunks: 0 });
    const parleyFts: Engine<RetrievedChunk[]> = {
      name: 'Parley FTS5',
      setup: 'createRetriever(db, { memoryIndexMaxChunks: 0 }): SQLite FTS5 bm25(title 2, headings 1.5, body 1), porter unicode61',
      query: (question, limit) => fts.retrieve(question, kbs, limit),
      ids: (hits, limit) => paragraphsOf(hits).slice(0, limit),
    };

    // The chat service exactly as the server runs it, with an assistant of default settings
    // except the threshold: 0 keeps the answer text of every question for the span check.
    const assistants = createAssistantStore(db);
    const config = assistantConfigSchema.parse({ name: 'Quality', knowledgeBases: kbs, confidenceThreshold: 0 });
    const assistant = assistants.create(organizationId, 'api', config, at);
    const defaultThreshold = assistantConfigSchema.parse({ name: 'x' }).confidenceThreshold;
    const chat = createChatService({
      db, clock: systemClock, retriever, conversations: createConversationStore(db), providers: { extractive: createExtractiveProvider() },
      writes: createWriteBatcher(db), webhooks: createWebhookEvents(db, systemClock),
    });

    // Warm-up that yields to the event loop, so a retriever that builds its in-memory index in
    // background slices (large files) is done before anything is measured.
    for (const q of questions) {
      parley.query(q.question, K);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }

    const asked: Asked[] = [];
    for (const q of questions) {
      const top = parley.ids(parley.query(q.question, K), K);
      const reply = await chat.chat({ assistant, message: q.question, sessionId: null, metadata: {}, channel: 'api' });
      asked.push({
        q, half: q.article % 2 === 0 ? 'calibration' : 'heldOut', rank: q.answerable ? rankOf(top, q.paragraph) : null, top,
        answer: reply.response, confidence: reply.confidence, correct: q.answerable && containsSpan(reply.response, q.answers),
      });
    }

    const answerable = asked.filter((a) => a.q.answerable);
    const ranks = answerable.map((a) => a.rank);
    const judged = (items: Asked[]): Judged[] => items.map((a) => ({ answerable: a.q.answerable, correct: a.correct, confidence: a.confidence }));
    const halves = { calibration: asked.filter((a) => a.half === 'calibration'), heldOut: asked.filter((a) => a.half === 'heldOut'), all: asked };
    const aurocOf = (items: Asked[], positive: (a: Asked) => boolean) =>
      r3(auroc(items.filter(positive).map((a) => a.confidence), items.filter((a) => !a.q.answerable).map((a) => a.confidence)));
    const calibrationSweep = sweep(judged(halves.calibration));
    const chosen = chooseThreshold(calibrationSweep);
    const rowAt = (items: Asked[], t: number): ThresholdRow => roundRow(thresholdRow(judged(items), t));

    // Engines on the same paragraphs, timed interleaved (the order rotates every question).
    const engines: Engine[] = [parley as Engine];
    if (opts.engines !== false) {
      engines.push(
        parleyFts as Engine, miniSearchEngine(paragraphs) as Engine, miniSearchEngine(paragraphs, 'porter') as Engine,
        oramaEngine(paragraphs) as Engine, oramaEngine(paragraphs, 'stopwords') as Engine,
      );
    }
    const samples = engines.map(() => [] as number[]);
    const engineRanks = engines.map(() => [] as (number | null)[]);
    for (const q of questions) for (const e of engines) e.query(q.question, K); // warm-up
    for (let r = 0; r < repeats; r++) {
      questions.forEach((q, qi) => {
        for (let j = 0; j < engines.length; j++) {
          const ei = (j + qi + r) % engines.length;
          const e = engines[ei] as Engine;
          const s = performance.now();
          const res = e.query(q.question, K);
          (samples[ei] as number[]).push(performance.now() - s);
          if (r === 0 && q.answerable) (engineRanks[ei] as (number | null)[]).push(rankOf(e.ids(res, K), q.paragraph));
        }
      });
    }
    const engineResults = engines.map((e, i) => {
      const rk = engineRanks[i] as (number | null)[];
      return { name: e.name, setup: e.setup, recallAt1: r3(recallAt(rk, 1)), recallAt5: r3(recallAt(rk, K)), mrr: r3(meanReciprocalRank(rk)), latencyMs: summarize(samples[i] as number[]) };
    });
    const base = engineResults[0] as (typeof engineResults)[number];
    const compared: EngineResult[] = engineResults.map((e) => ({
      ...e,
      vsParley: {
        recallAt1: ratio(e.recallAt1, base.recallAt1), recallAt5: ratio(e.recallAt5, base.recallAt5), mrr: ratio(e.mrr, base.mrr),
        p50: ratio(e.latencyMs.p50, base.latencyMs.p50), p99: ratio(e.latencyMs.p99, base.latencyMs.p99),
      },
    }));

    const title = (i: number): string => paragraphs[i]?.title ?? '?';
    const words = (t: string): number => t.split(/\s+/).filter(Boolean).length;
    return {
      dataset: {
        file: path.relative(process.cwd(), file) || file, version: dataset.version, articles: dataset.data.length, paragraphs: paragraphs.length, chunks,
        answerable: answerable.length, unanswerable: asked.length - answerable.length,
        halves: { calibration: halves.calibration.length, heldOut: halves.heldOut.length }, ingestMs: round(ingestMs, 1),
      },
      retrieval: { k: K, recallAt1: r3(recallAt(ranks, 1)), recallAt5: r3(recallAt(ranks, K)), mrr: r3(meanReciprocalRank(ranks)), n: ranks.length },
      answers: {
        goldSpanShare: r3(answerable.filter((a) => a.correct).length / (answerable.length || 1)),
        goldSpanShareWhenRetrievedAt1: r3(answerable.filter((a) => a.correct && a.rank === 1).length / (answerable.filter((a) => a.rank === 1).length || 1)),
        meanWords: round(answerable.reduce((s, a) => s + words(a.answer), 0) / (answerable.length || 1), 1),
        empty: asked.filter((a) => !a.answer).length,
      },
      confidence: {
        auroc: { all: aurocOf(asked, (a) => a.q.answerable), calibration: aurocOf(halves.calibration, (a) => a.q.answerable), heldOut: aurocOf(halves.heldOut, (a) => a.q.answerable) },
        aurocCorrectVsUnanswerable: { all: aurocOf(asked, (a) => a.correct), calibration: aurocOf(halves.calibration, (a) => a.correct), heldOut: aurocOf(halves.heldOut, (a) => a.correct) },
        meanConfidence: {
          answerable: r3(answerable.reduce((s, a) => s + a.confidence, 0) / (answerable.length || 1)),
          unanswerable: r3(asked.filter((a) => !a.q.answerable).reduce((s, a) => s + a.confidence, 0) / (asked.length - answerable.length || 1)),
        },
      },
      threshold: {
        criterion: 'max balanced accuracy (answer rate on answerable questions answered with a gold span, fallback rate on unanswerable ones) on the calibration half; middle of the plateau within 0.01',
        chosen: chosen.threshold,
        atChosen: { calibration: rowAt(halves.calibration, chosen.threshold), heldOut: rowAt(halves.heldOut, chosen.threshold), all: rowAt(asked, chosen.threshold) },
        schemaDefault: defaultThreshold,
        atSchemaDefault: { calibration: rowAt(halves.calibration, defaultThreshold), heldOut: rowAt(halves.heldOut, defaultThreshold), all: rowAt(asked, defaultThreshold) },
        sweep: { calibration: calibrationSweep.map(roundRow), heldOut: sweep(judged(halves.heldOut)).map(roundRow) },
      },
      engines: compared,
      examples: {
        retrievalMisses: answerable.filter((a) => a.rank === null).slice(0, examples)
          .map((a) => ({ id: a.q.id, question: a.q.question, gold: title(a.q.paragraph), top: a.top.map(title) })),
        confidentUnanswerable: asked.filter((a) => !a.q.answerable).sort((a, b) => b.confidence - a.confidence).slice(0, examples)
          .map((a) => ({ id: a.q.id, question: a.q.question, confidence: a.confidence, answer: a.answer.slice(0, 160) })),
        unsureAnswerable: answerable.filter((a) => a.correct).sort((a, b) => a.confidence - b.confidence).slice(0, examples)
          .map((a) => ({ id: a.q.id, question: a.q.question, confidence: a.confidence, rank: a.rank })),
      },
    };
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function roundRow(r: ThresholdRow): ThresholdRow {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, r3(v)])) as unknown as ThresholdRow;
}

export type QualityResult = Awaited<ReturnType<typeof runQualityBench>>;

const pct = (x: number): string => `${round(x * 100, 1)} %`;

/** Table rows for bench/src/run.ts: [measure, value, detail]. */
export function qualityRows(q: QualityResult): [string, string, string][] {
  const d = q.dataset;
  const t = q.threshold;
  const rows: [string, string, string][] = [
    [`quality: retrieval (${d.paragraphs} paragraphs, ${d.answerable} answerable questions)`, `recall@1 ${q.retrieval.recallAt1}, recall@5 ${q.retrieval.recallAt5}`, `MRR ${q.retrieval.mrr}; ${d.file}`],
    ['quality: extractive answers holding a gold span', pct(q.answers.goldSpanShare), `${pct(q.answers.goldSpanShareWhenRetrievedAt1)} when the gold paragraph ranks first; mean ${q.answers.meanWords} words`],
    [`quality: confidence AUROC, answerable vs unanswerable (${d.unanswerable})`, `calibration ${q.confidence.auroc.calibration}, held-out ${q.confidence.auroc.heldOut}`, `all ${q.confidence.auroc.all}; gold-span answers vs unanswerable ${q.confidence.aurocCorrectVsUnanswerable.all}`],
    [
      `quality: confidence threshold ${t.chosen} (best balanced accuracy, calibration half)`,
      `balanced acc. ${t.atChosen.calibration.balancedAccuracy} / held-out ${t.atChosen.heldOut.balancedAccuracy}`,
      `held-out: precision ${t.atChosen.heldOut.precision}, recall ${t.atChosen.heldOut.recall}, unanswerable → fallback ${pct(t.atChosen.heldOut.unanswerableFallback)}; schema default ${t.schemaDefault}: held-out balanced acc. ${t.atSchemaDefault.heldOut.balancedAccuracy}`,
    ],
  ];
  const parley = q.engines[0];
  if (parley) rows.push([`quality: Parley query (retriever, k=${q.retrieval.k})`, `p50 ${parley.latencyMs.p50} ms`, `p99 ${parley.latencyMs.p99} ms (n=${parley.latencyMs.n})`]);
  for (const e of q.engines.slice(1)) {
    rows.push([
      `quality: ${e.name} vs Parley`, `recall@5 ${e.vsParley.recallAt5}×, p50 ${e.vsParley.p50}×`,
      `recall@5 ${e.recallAt5}, recall@1 ${e.recallAt1} (${e.vsParley.recallAt1}×), MRR ${e.mrr} (${e.vsParley.mrr}×); p50 ${e.latencyMs.p50} ms, p99 ${e.latencyMs.p99} ms (${e.vsParley.p99}×)`,
    ]);
  }
  return rows;
}

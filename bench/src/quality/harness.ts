/**
 * Retrieval, answer and confidence quality on a SQuAD v2 file, split by article into a tuning
 * half and a held-out half (fixed: see `splitArticles`). Every paragraph becomes a document of a
 * fresh knowledge base (a temp SQLite file through the server's own migrations, store and
 * retriever), every question is asked through the real chat service, and both halves report:
 *
 * - retrieval: paragraph recall@1/@5 and MRR over answerable questions, for Parley's retriever,
 *   its FTS5 path, and plain FTS5 BM25 (every question word OR-ed, `bm25()` with default weights);
 * - answers (extractive provider, an assistant of schema defaults except `confidenceThreshold: 0`
 *   so every answer text is seen; the default threshold is applied afterwards, exactly as the
 *   chat service does): the share of answerable questions whose answer holds a gold span at the
 *   default threshold (a fallback is a miss), mean answer length, the share that falls back;
 * - confidence: AUROC of right answers (gold span, threshold 0) vs everything else, and of
 *   answerable vs unanswerable questions; a threshold sweep on the tuning half.
 * - optionally MiniSearch and Orama on the same paragraphs: recall and query latency.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createExtractiveProvider } from '../../../server/src/answer/providers/extractive.js';
import type { AnswerRequest } from '../../../server/src/answer/providers/types.js';
import { assistantConfigSchema, type AssistantConfig } from '../../../server/src/assistants/schemas.js';
import { createAssistantStore } from '../../../server/src/assistants/service.js';
import { createChatService } from '../../../server/src/chat/service.js';
import { createConversationStore } from '../../../server/src/conversations/store.js';
import { migrate } from '../../../server/src/db/migrate.js';
import { openDb, type Db } from '../../../server/src/db/open.js';
import { createRetriever, type RetrievedChunk } from '../../../server/src/knowledge/retrieval.js';
import { createKnowledgeStore } from '../../../server/src/knowledge/store.js';
import { analyzerFor } from '../../../server/src/text/text.js';
import { systemClock } from '../../../server/src/lib/clock.js';
import type { Storage } from '../../../server/src/storage/port.js';
import { createSqliteStorage } from '../../../server/src/storage/sqlite.js';
import { createWebhookEvents } from '../../../server/src/webhooks/events.js';
import { round, summarize } from '../stats.js';
import { DEFAULT_DATASET } from './build-dataset.js';
import { miniSearchEngine, oramaEngine, type Engine } from './engines.js';
import { auroc, chooseThreshold, containsSpan, meanReciprocalRank, rankOf, recallAt, sweep, thresholdRow, type Judged } from './metrics.js';
import { openTempKnowledgeBase } from './temp-knowledge.js';
import { flatten, loadSquad, validateSquad, type FlatParagraph, type FlatQuestion, type SquadDataset } from './squad.js';

export interface QualityOptions {
  /** A SQuAD v2 file; default PARLEY_QUALITY_FILE or bench/data/quality/parley-qa.json. */
  file?: string | undefined;
  /** Timed passes over all questions per engine (after one warm-up pass). */
  repeats?: number;
  /** MiniSearch and Orama beside Parley (slow on big files); default on. */
  engines?: boolean;
  /** Failing questions kept in the JSON (each kind). */
  examples?: number;
}

/** Parley's retrieval depth for the metrics. */
const K = 5;

export type Half = 'tuning' | 'heldOut';

/** 32-bit FNV-1a of a string's UTF-8 bytes: a fixed, platform-independent order for articles. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

/**
 * The fixed split: articles ordered by the FNV-1a hash of their title, then alternately tuning
 * and held-out (the first is tuning). It depends on titles only, never on results, and balances
 * the halves' article counts, which a plain hash parity does not on a file of eleven articles.
 */
export function splitArticles(titles: readonly string[]): Half[] {
  const order = titles.map((t, i) => ({ i, h: fnv1a(t) })).sort((a, b) => a.h - b.h || a.i - b.i);
  const halves: Half[] = new Array<Half>(titles.length);
  order.forEach(({ i }, pos) => {
    halves[i] = pos % 2 === 0 ? 'tuning' : 'heldOut';
  });
  return halves;
}

/** A knowledge base holding every paragraph of a SQuAD file as one document, and the chat service over it. */
export interface QualityCorpus {
  db: Db;
  /** The same database through the storage port (what the server's modules take). */
  storage: Storage;
  dataset: SquadDataset;
  paragraphs: FlatParagraph[];
  questions: FlatQuestion[];
  halfOf: (q: FlatQuestion) => Half;
  retriever: ReturnType<typeof createRetriever>;
  /** Paragraph indexes of retrieved chunks, in rank order, distinct. */
  paragraphsOf: (hits: readonly RetrievedChunk[]) => number[];
  /** Plain FTS5 BM25: every question word OR-ed, bm25() default weights, paragraph indexes best first. */
  plainFts: (question: string, limit: number) => number[];
  /** The chat service's answer with threshold 0 (text and confidence). */
  ask: (question: string) => Promise<{ response: string; confidence: number }>;
  kbs: { id: string; priority: number }[];
  ingestMs: number;
  chunks: number;
  close: () => void;
}

export async function openQualityCorpus(file: string): Promise<QualityCorpus> {
  const dataset = loadSquad(file);
  const problems = validateSquad(dataset);
  if (problems.length) throw new Error(`${file} is not valid SQuAD v2:\n${problems.slice(0, 10).join('\n')}`);
  const { paragraphs, questions } = flatten(dataset);
  const halves = splitArticles(dataset.data.map((a) => a.title));

  // One document per paragraph, one transaction.
  const temp = await openTempKnowledgeBase(
    'Quality corpus',
    paragraphs.map((p) => ({ title: p.title, content: p.context, format: 'text' as const, url: null })),
  );
  const { db, storage, organizationId, retriever, kbs, ingestMs } = temp;
  const at = new Date().toISOString();
  const paragraphOfDocument = new Map<string, number>(temp.documentIds.map((id, i) => [id, (paragraphs[i] as FlatParagraph).index]));
  const chunks = (db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
  const paragraphsOf = (hits: readonly RetrievedChunk[]): number[] => [
    ...new Set(hits.map((c) => paragraphOfDocument.get(c.documentId) as number)),
  ];

  const plainStmt = db.prepare<[string, number], { document_id: string }>(
    'SELECT c.document_id FROM chunks_fts f JOIN chunks c ON c.id = f.rowid WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts) LIMIT ?',
  );
  const plainFts = (question: string, limit: number): number[] => {
    // Every word as the index holds it (the analyzer's terms: FTS5 stores those since issue 25,
    // where its Porter tokenizer used to stem the query's words itself).
    const words = [...new Set(analyzerFor('en').indexTerms(question))];
    if (!words.length) return [];
    const rows = plainStmt.all(words.map((w) => `"${w}"`).join(' OR '), limit * 4);
    return [...new Set(rows.map((r) => paragraphOfDocument.get(r.document_id) as number))].slice(0, limit);
  };

  // The chat service exactly as the server runs it, with an assistant of default settings
  // except the threshold: 0 keeps the answer text of every question.
  const assistants = createAssistantStore(storage);
  const config = assistantConfigSchema.parse({ name: 'Quality', knowledgeBases: kbs, confidenceThreshold: 0 });
  const assistant = await assistants.create(organizationId, 'api', config, at);
  const chat = createChatService({
    storage,
    clock: systemClock,
    retriever,
    conversations: createConversationStore(storage),
    providers: { extractive: createExtractiveProvider() },
    webhooks: createWebhookEvents(storage, systemClock),
  });
  const ask = async (question: string) => chat.chat({ assistant, message: question, sessionId: null, metadata: {}, channel: 'api' });
  return {
    db,
    storage,
    dataset,
    paragraphs,
    questions,
    halfOf: (q) => halves[q.article] as Half,
    retriever,
    paragraphsOf,
    plainFts,
    ask,
    kbs,
    ingestMs,
    chunks,
    close: temp.close,
  };
}

interface Asked {
  q: FlatQuestion;
  half: Half;
  /** Gold paragraph's 1-based rank among the distinct paragraphs of the top chunks (answerable only). */
  rank: number | null;
  ftsRank: number | null;
  plainRank: number | null;
  top: number[];
  answer: string;
  confidence: number;
  /** The answer (threshold 0) holds a gold span. */
  correct: boolean;
  /** The extractive answer to the gold paragraph alone holds a gold span (answerable only). */
  correctGivenGold: boolean;
  chatMs: number;
}

/**
 * The extractive provider's answer when it is handed the gold paragraph alone, as one passage
 * (assistant defaults otherwise): what the answer step achieves when retrieval is perfect. Set
 * beside the real figure it splits a wrong answer's blame between retrieval and sentence choice.
 */
async function answerFromParagraph(question: string, paragraph: FlatParagraph, defaults: AssistantConfig): Promise<string> {
  const request: AnswerRequest = {
    question,
    passages: [{ id: String(paragraph.index), title: paragraph.title, url: null, text: paragraph.context, headingPath: [], score: 1 }],
    history: [],
    systemPrompt: '',
    variables: {},
    language: defaults.language,
    maxResponseLength: defaults.maxResponseLength,
    model: defaults.model,
  };
  let text = '';
  for await (const e of GOLD_PARAGRAPH_ANSWERER.answer(request, {})) if (e.type === 'delta') text += e.text;
  return text;
}
const GOLD_PARAGRAPH_ANSWERER = createExtractiveProvider();

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
const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

/** The figures of one half (or of all questions) at `threshold`. */
function summarizeHalf(items: readonly Asked[], threshold: number) {
  const answerable = items.filter((a) => a.q.answerable);
  const unanswerable = items.filter((a) => !a.q.answerable);
  const retrieval = (rank: (a: Asked) => number | null) => {
    const ranks = answerable.map(rank);
    return { recallAt1: r3(recallAt(ranks, 1)), recallAt5: r3(recallAt(ranks, K)), mrr: r3(meanReciprocalRank(ranks)) };
  };
  const answered = (a: Asked): boolean => a.answer !== '' && a.confidence >= threshold;
  const answeredAnswerable = answerable.filter(answered);
  const right = (a: Asked): boolean => a.correct;
  const rest = items.filter((a) => !a.correct);
  return {
    questions: items.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    retrieval: { parley: retrieval((a) => a.rank), parleyFts: retrieval((a) => a.ftsRank), plainFts: retrieval((a) => a.plainRank) },
    answers: {
      threshold,
      goldSpanAtThreshold: r3(answerable.filter((a) => answered(a) && a.correct).length / (answerable.length || 1)),
      goldSpanAtZero: r3(answerable.filter(right).length / (answerable.length || 1)),
      goldSpanGivenGoldParagraph: r3(answerable.filter((a) => a.correctGivenGold).length / (answerable.length || 1)),
      meanChars: round(mean(answeredAnswerable.map((a) => a.answer.length)), 1),
      meanCharsAll: round(mean(items.filter((a) => a.answer).map((a) => a.answer.length)), 1),
      fallbackAnswerable: r3(1 - answeredAnswerable.length / (answerable.length || 1)),
      fallbackUnanswerable: r3(unanswerable.filter((a) => !answered(a)).length / (unanswerable.length || 1)),
    },
    confidence: {
      aurocRightVsRest: r3(
        auroc(
          items.filter(right).map((a) => a.confidence),
          rest.map((a) => a.confidence),
        ),
      ),
      aurocAnswerableVsUnanswerable: r3(
        auroc(
          answerable.map((a) => a.confidence),
          unanswerable.map((a) => a.confidence),
        ),
      ),
      meanAnswerable: r3(mean(answerable.map((a) => a.confidence))),
      meanUnanswerable: r3(mean(unanswerable.map((a) => a.confidence))),
    },
  };
}

export async function runQualityBench(opts: QualityOptions = {}) {
  const file = path.resolve(opts.file ?? process.env.PARLEY_QUALITY_FILE ?? DEFAULT_DATASET);
  const repeats = opts.repeats ?? 3;
  const examples = opts.examples ?? 30;
  const corpus = await openQualityCorpus(file);
  const { paragraphs, questions, retriever, kbs, paragraphsOf } = corpus;
  try {
    const parley: Engine<RetrievedChunk[]> = {
      name: 'Parley',
      setup:
        'createRetriever(db).retrieve(question, [{ id: kb, priority: 5 }], 5): the server default (in memory below its size limit, else FTS5)',
      query: (question, limit) => retriever.retrieve(question, kbs, limit),
      ids: (hits, limit) => paragraphsOf(hits).slice(0, limit),
    };
    // The same retriever forced onto SQLite FTS5 (what bases too big for memory use).
    const fts = createRetriever(corpus.storage, { memoryIndexMaxChunks: 0 });
    const parleyFts: Engine<RetrievedChunk[]> = {
      name: 'Parley FTS5',
      setup: 'createRetriever(db, { memoryIndexMaxChunks: 0 }): the FTS5 path',
      query: (question, limit) => fts.retrieve(question, kbs, limit),
      ids: (hits, limit) => paragraphsOf(hits).slice(0, limit),
    };
    const defaults = assistantConfigSchema.parse({ name: 'x' });
    const defaultThreshold = defaults.confidenceThreshold;

    // Warm-up that yields to the event loop, so a retriever that builds its in-memory index in
    // background slices (large files) is done before anything is measured.
    for (const q of questions) {
      await parley.query(q.question, K);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }

    const asked: Asked[] = [];
    for (const q of questions) {
      const top = parley.ids(await parley.query(q.question, K), K);
      const ftsTop = parleyFts.ids(await parleyFts.query(q.question, K), K);
      const plainTop = corpus.plainFts(q.question, K);
      const s = performance.now();
      const reply = await corpus.ask(q.question);
      const chatMs = performance.now() - s;
      const gold = (ranked: number[]) => (q.answerable ? rankOf(ranked, q.paragraph) : null);
      const givenGold = q.answerable ? await answerFromParagraph(q.question, paragraphs[q.paragraph] as FlatParagraph, defaults) : '';
      asked.push({
        q,
        half: corpus.halfOf(q),
        rank: gold(top),
        ftsRank: gold(ftsTop),
        plainRank: gold(plainTop),
        top,
        answer: reply.response,
        confidence: reply.confidence,
        correct: q.answerable && containsSpan(reply.response, q.answers),
        correctGivenGold: q.answerable && containsSpan(givenGold, q.answers),
        chatMs,
      });
    }

    const halves = { tuning: asked.filter((a) => a.half === 'tuning'), heldOut: asked.filter((a) => a.half === 'heldOut') };
    const judged = (items: Asked[]): Judged[] =>
      items.map((a) => ({ answerable: a.q.answerable, correct: a.correct, confidence: a.confidence }));
    const tuningSweep = sweep(judged(halves.tuning));
    const chosen = chooseThreshold(tuningSweep);

    // Engines on the same paragraphs, timed interleaved (the order rotates every question).
    const engines: Engine[] = [parley as Engine];
    if (opts.engines !== false) {
      engines.push(
        parleyFts as Engine,
        miniSearchEngine(paragraphs) as Engine,
        miniSearchEngine(paragraphs, 'porter') as Engine,
        oramaEngine(paragraphs) as Engine,
        oramaEngine(paragraphs, 'stopwords') as Engine,
      );
    }
    const samples = engines.map(() => [] as number[]);
    const engineRanks = engines.map(() => [] as (number | null)[]);
    for (const q of questions) for (const e of engines) await e.query(q.question, K); // warm-up
    for (let r = 0; r < repeats; r++) {
      for (const [qi, q] of questions.entries()) {
        for (let j = 0; j < engines.length; j++) {
          const ei = (j + qi + r) % engines.length;
          const e = engines[ei] as Engine;
          const s = performance.now();
          const res = await e.query(q.question, K);
          (samples[ei] as number[]).push(performance.now() - s);
          if (r === 0 && q.answerable) (engineRanks[ei] as (number | null)[]).push(rankOf(e.ids(res, K), q.paragraph));
        }
      }
    }
    const engineResults = engines.map((e, i) => {
      const rk = engineRanks[i] as (number | null)[];
      return {
        name: e.name,
        setup: e.setup,
        recallAt1: r3(recallAt(rk, 1)),
        recallAt5: r3(recallAt(rk, K)),
        mrr: r3(meanReciprocalRank(rk)),
        latencyMs: summarize(samples[i] as number[]),
      };
    });
    const base = engineResults[0] as (typeof engineResults)[number];
    const compared: EngineResult[] = engineResults.map((e) => ({
      ...e,
      vsParley: {
        recallAt1: ratio(e.recallAt1, base.recallAt1),
        recallAt5: ratio(e.recallAt5, base.recallAt5),
        mrr: ratio(e.mrr, base.mrr),
        p50: ratio(e.latencyMs.p50, base.latencyMs.p50),
        p99: ratio(e.latencyMs.p99, base.latencyMs.p99),
      },
    }));

    const title = (i: number): string => paragraphs[i]?.title ?? '?';
    const d = corpus.dataset;
    const halfArticles = (h: Half) => d.data.filter((_, i) => corpus.halfOf({ article: i } as FlatQuestion) === h).map((a) => a.title);
    const answerable = asked.filter((a) => a.q.answerable);
    return {
      dataset: {
        file: path.relative(process.cwd(), file) || file,
        version: d.version,
        articles: d.data.length,
        paragraphs: paragraphs.length,
        chunks: corpus.chunks,
        answerable: answerable.length,
        unanswerable: asked.length - answerable.length,
        ingestMs: round(corpus.ingestMs, 1),
        split: 'articles ordered by FNV-1a of the title, alternately tuning and held-out (splitArticles)',
        halves: { tuning: halfArticles('tuning'), heldOut: halfArticles('heldOut') },
      },
      k: K,
      tuning: summarizeHalf(halves.tuning, defaultThreshold),
      heldOut: summarizeHalf(halves.heldOut, defaultThreshold),
      all: summarizeHalf(asked, defaultThreshold),
      chatMs: summarize(asked.map((a) => a.chatMs)),
      threshold: {
        schemaDefault: defaultThreshold,
        criterion:
          'max balanced accuracy (answer the questions answered with a gold span, fall back on unanswerable ones) on the tuning half; middle of the plateau within 0.01',
        bestOnTuning: chosen.threshold,
        sweep: { tuning: tuningSweep.map(roundRow), heldOut: sweep(judged(halves.heldOut)).map(roundRow) },
        atDefault: {
          tuning: roundRow(thresholdRow(judged(halves.tuning), defaultThreshold)),
          heldOut: roundRow(thresholdRow(judged(halves.heldOut), defaultThreshold)),
        },
      },
      engines: compared,
      examples: {
        retrievalMisses: halves.tuning
          .filter((a) => a.q.answerable && a.rank === null)
          .slice(0, examples)
          .map((a) => ({ id: a.q.id, question: a.q.question, gold: title(a.q.paragraph), top: a.top.map(title) })),
        confidentWrong: halves.tuning
          .filter((a) => !a.correct)
          .sort((a, b) => b.confidence - a.confidence)
          .slice(0, examples)
          .map((a) => ({
            id: a.q.id,
            answerable: a.q.answerable,
            question: a.q.question,
            confidence: a.confidence,
            gold: a.q.answers[0] ?? null,
            answer: a.answer.slice(0, 200),
          })),
        unsureRight: halves.tuning
          .filter((a) => a.correct)
          .sort((a, b) => a.confidence - b.confidence)
          .slice(0, examples)
          .map((a) => ({ id: a.q.id, question: a.q.question, confidence: a.confidence, answer: a.answer.slice(0, 200) })),
        wrongAnswers: halves.tuning
          .filter((a) => a.q.answerable && !a.correct && a.rank === 1)
          .slice(0, examples)
          .map((a) => ({ id: a.q.id, question: a.q.question, gold: a.q.answers, answer: a.answer.slice(0, 300) })),
      },
    };
  } finally {
    corpus.close();
  }
}

function roundRow<T extends object>(row: T): T {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' ? r3(v) : v])) as T;
}

export type QualityResult = Awaited<ReturnType<typeof runQualityBench>>;

const pct = (x: number): string => `${round(x * 100, 1)} %`;

/** The per-half table: [measure, tuning, held-out]. */
export function qualityHalfRows(q: QualityResult): [string, string, string][] {
  const t = q.tuning;
  const h = q.heldOut;
  const row = (name: string, f: (s: typeof t) => string): [string, string, string] => [name, f(t), f(h)];
  return [
    row('questions (answerable / unanswerable)', (s) => `${s.questions} (${s.answerable} / ${s.unanswerable})`),
    row('paragraph recall@1 / @5, Parley', (s) => `${s.retrieval.parley.recallAt1} / ${s.retrieval.parley.recallAt5}`),
    row('paragraph recall@1 / @5, plain FTS5 BM25', (s) => `${s.retrieval.plainFts.recallAt1} / ${s.retrieval.plainFts.recallAt5}`),
    row('paragraph recall@1 / @5, Parley FTS5 path', (s) => `${s.retrieval.parleyFts.recallAt1} / ${s.retrieval.parleyFts.recallAt5}`),
    row(`answer holds a gold span at threshold ${t.answers.threshold} (fallback = miss)`, (s) => pct(s.answers.goldSpanAtThreshold)),
    row('answer holds a gold span at threshold 0', (s) => pct(s.answers.goldSpanAtZero)),
    row('answer holds a gold span, gold paragraph given alone (threshold 0)', (s) => pct(s.answers.goldSpanGivenGoldParagraph)),
    row('mean answer length (answered answerable questions)', (s) => `${s.answers.meanChars} chars`),
    row('answerable questions that fall back', (s) => pct(s.answers.fallbackAnswerable)),
    row('unanswerable questions that fall back', (s) => pct(s.answers.fallbackUnanswerable)),
    row('confidence AUROC, right answer vs rest', (s) => String(s.confidence.aurocRightVsRest)),
    row('confidence AUROC, answerable vs unanswerable', (s) => String(s.confidence.aurocAnswerableVsUnanswerable)),
  ];
}

/** Table rows for bench/src/run.ts: [measure, value, detail]. */
export function qualityRows(q: QualityResult): [string, string, string][] {
  const d = q.dataset;
  const rows: [string, string, string][] = qualityHalfRows(q).map(([m, t, h]) => [
    `quality: ${m}`,
    `held-out ${h}`,
    `tuning ${t}; ${d.file}`,
  ]);
  const parley = q.engines[0];
  if (parley)
    rows.push([
      `quality: Parley query (retriever, k=${q.k})`,
      `p50 ${parley.latencyMs.p50} ms`,
      `p99 ${parley.latencyMs.p99} ms (n=${parley.latencyMs.n})`,
    ]);
  for (const e of q.engines.slice(1)) {
    rows.push([
      `quality: ${e.name} vs Parley`,
      `recall@5 ${e.vsParley.recallAt5}×, p50 ${e.vsParley.p50}×`,
      `recall@5 ${e.recallAt5}, recall@1 ${e.recallAt1} (${e.vsParley.recallAt1}×), MRR ${e.mrr} (${e.vsParley.mrr}×); p50 ${e.latencyMs.p50} ms, p99 ${e.latencyMs.p99} ms (${e.vsParley.p99}×)`,
    ]);
  }
  return rows;
}

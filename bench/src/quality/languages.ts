/**
 * Quality per language (issue 25): a set of parallel SQuAD-format files, one per language (today
 * XQuAD: ../shared/data/xquad/xquad.LANG.json, the same 24 articles in 12 languages), each run
 * the same way, tuning and held-out articles apart (splitArticles on the titles, which are the
 * English ones in every file, so every language splits alike):
 *
 * - one knowledge base per language (language `auto`: each paragraph's language detected), every
 *   question asked in its language: paragraph recall@1 of the retriever, and the chat service's
 *   answer (extractive provider, threshold 0 so every answer is seen): does it hold a gold span,
 *   its mean length;
 * - small knowledge bases, one per article (about five paragraphs, a site FAQ's size), the
 *   assistant's default threshold: answers holding a gold span, and answerable questions that
 *   fall back.
 *
 * Another question set (a help center's FAQ) plugs in as another `LanguageFile` list.
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
import { createRetriever } from '../../../server/src/knowledge/retrieval.js';
import { createKnowledgeStore } from '../../../server/src/knowledge/store.js';
import { systemClock } from '../../../server/src/lib/clock.js';
import { REPO_ROOT } from '../../../server/src/paths.js';
import { createSqliteStorage } from '../../../server/src/storage/sqlite.js';
import { createWebhookEvents } from '../../../server/src/webhooks/events.js';
import { round } from '../stats.js';
import { splitArticles, type Half } from './harness.js';
import { containsSpanIn, rankOf, recallAt } from './metrics.js';
import { flatten, loadSquad, type FlatParagraph, type FlatQuestion } from './squad.js';

export interface LanguageFile {
  language: string;
  file: string;
}

export const XQUAD_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'xquad');
export const XQUAD_LANGUAGES = ['en', 'de', 'es', 'ru', 'zh', 'ar', 'hi', 'th', 'vi', 'tr', 'el', 'ro'] as const;

/** XQuAD's files present beside the checkout (none when the shared data is absent). */
export function xquadFiles(dir = XQUAD_DIR): LanguageFile[] {
  return XQUAD_LANGUAGES.map((language) => ({ language, file: path.join(dir, `xquad.${language}.json`) })).filter((f) =>
    fs.existsSync(f.file),
  );
}

export interface HalfFigures {
  questions: number;
  recallAt1: number;
  goldSpan: number;
  meanChars: number;
  smallKb: { goldSpan: number; answerableFallback: number };
}

export interface LanguageResult {
  language: string;
  tuning: HalfFigures;
  heldOut: HalfFigures;
  ingestMBps: number;
}

interface Asked {
  half: Half;
  rank: number | null;
  correct: boolean;
  chars: number;
  smallCorrect: boolean;
  smallFallback: boolean;
}

/** A temp SQLite database through the server's migrations, with one organization. */
function openBenchDb() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-languages-'));
  const db = openDb(path.join(dir, 'quality.db'));
  migrate(db);
  const at = new Date().toISOString();
  db.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_q', 'Quality', 'enterprise', ?)").run(at);
  const storage = createSqliteStorage(db);
  return {
    db,
    storage,
    at,
    close: () => {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One language's figures. */
export async function runLanguage({ language, file }: LanguageFile): Promise<LanguageResult> {
  const dataset = loadSquad(file);
  const { paragraphs, questions } = flatten(dataset);
  const halves = splitArticles(dataset.data.map((a) => a.title));
  const { storage, at, close } = openBenchDb();
  try {
    const store = createKnowledgeStore(storage);
    const retriever = createRetriever(storage);
    const assistants = createAssistantStore(storage);
    const chat = createChatService({
      storage,
      clock: systemClock,
      retriever,
      conversations: createConversationStore(storage),
      providers: { extractive: createExtractiveProvider() },
      webhooks: createWebhookEvents(storage, systemClock),
    });
    const defaults = assistantConfigSchema.parse({ name: 'x' });

    // The whole set in one base, and one base per article.
    const big = await store.createKb('org_q', { name: 'all', description: null }, at);
    const small = await Promise.all(
      dataset.data.map((a) => store.createKb('org_q', { name: a.title.slice(0, 200), description: null }, at)),
    );
    const paragraphOf = new Map<string, number>();
    // Untimed warm-up, the whole set once: the language's detector, stemmer and stopwords load on
    // first use and the code paths warm up; a figure that includes that (the first language run
    // paid it: "en 0.03 MB/s", 0.12 cold against 1.27 warm in one process) measures start-up.
    const warm = await store.createKb('org_q', { name: 'warm-up', description: null }, at);
    await store.write(async (w) => {
      for (const p of paragraphs) await w.addDocument(warm.id, { title: p.title, content: p.context, format: 'text', url: null }, at);
    });
    const t0 = performance.now();
    let bytes = 0;
    await store.write(async (w) => {
      for (const p of paragraphs) {
        const doc = await w.addDocument(big.id, { title: p.title, content: p.context, format: 'text', url: null }, at);
        paragraphOf.set(doc.id, p.index);
        bytes += Buffer.byteLength(p.context);
      }
    });
    const ingestMs = performance.now() - t0;
    await store.write(async (w) => {
      for (const p of paragraphs)
        await w.addDocument((small[p.article] as { id: string }).id, { title: p.title, content: p.context, format: 'text', url: null }, at);
    });
    const assistantOf = async (kbId: string, threshold: number) =>
      assistants.create(
        'org_q',
        'api',
        assistantConfigSchema.parse({ name: 'Q', language, knowledgeBases: [{ id: kbId, priority: 5 }], confidenceThreshold: threshold }),
        at,
      );
    const bigAssistant = await assistantOf(big.id, 0);
    // Threshold 0 keeps every answer's text; the default threshold is applied here, as the chat
    // service applies it (harness.ts does the same).
    const smallAssistants = await Promise.all(small.map((kb) => assistantOf(kb.id, 0)));
    const ask = async (assistant: typeof bigAssistant, message: string) =>
      chat.chat({ assistant, message, sessionId: null, metadata: {}, channel: 'api' });

    const asked: Asked[] = [];
    const kbs = [{ id: big.id, priority: 5 }];
    for (const q of questions.filter((x) => x.answerable)) {
      const hits = await retriever.retrieve(q.question, kbs, 5);
      const top = [...new Set(hits.map((h) => paragraphOf.get(h.documentId) as number))];
      const reply = await ask(bigAssistant, q.question);
      const smallReply = await ask(smallAssistants[q.article] as typeof bigAssistant, q.question);
      const answered = smallReply.response !== '' && smallReply.confidence >= defaults.confidenceThreshold;
      asked.push({
        half: halves[q.article] as Half,
        rank: rankOf(top, q.paragraph),
        correct: containsSpanIn(reply.response, q.answers, language),
        chars: reply.response.length,
        smallCorrect: answered && containsSpanIn(smallReply.response, q.answers, language),
        smallFallback: !answered,
      });
    }
    const figures = (h: Half): HalfFigures => {
      const xs = asked.filter((a) => a.half === h);
      const share = (f: (a: Asked) => boolean): number => round(xs.filter(f).length / (xs.length || 1), 3);
      return {
        questions: xs.length,
        recallAt1: round(
          recallAt(
            xs.map((a) => a.rank),
            1,
          ),
          3,
        ),
        goldSpan: share((a) => a.correct),
        meanChars: round(xs.reduce((s, a) => s + a.chars, 0) / (xs.length || 1), 1),
        smallKb: { goldSpan: share((a) => a.smallCorrect), answerableFallback: share((a) => a.smallFallback) },
      };
    };
    return { language, tuning: figures('tuning'), heldOut: figures('heldOut'), ingestMBps: round(bytes / 1e6 / (ingestMs / 1000), 2) };
  } finally {
    close();
  }
}

/** Every language of a set, in order. */
export async function runLanguages(files: readonly LanguageFile[]): Promise<LanguageResult[]> {
  const out: LanguageResult[] = [];
  for (const f of files) out.push(await runLanguage(f));
  return out;
}

/** The per-language table of one half: a row per measure, a column per language. */
export function languageTable(results: readonly LanguageResult[], half: Half): string {
  const pct = (x: number): string => `${round(x * 100, 1)}`;
  const row = (name: string, f: (h: HalfFigures) => string): string => `| ${name} | ${results.map((r) => f(r[half])).join(' | ')} |`;
  return [
    `| ${half === 'tuning' ? 'tuning' : 'held-out'} | ${results.map((r) => r.language).join(' | ')} |`,
    `|---|${results.map(() => '---|').join('')}`,
    row('questions', (h) => String(h.questions)),
    row('recall@1', (h) => h.recallAt1.toFixed(3)),
    row('answer holds the gold span (%)', (h) => pct(h.goldSpan)),
    row('mean answer (chars)', (h) => String(Math.round(h.meanChars))),
    row('small KBs: gold span (%)', (h) => pct(h.smallKb.goldSpan)),
    row('small KBs: answerable fallback (%)', (h) => pct(h.smallKb.answerableFallback)),
  ].join('\n');
}

export type { FlatParagraph, FlatQuestion };

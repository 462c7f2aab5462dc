/**
 * Help-center quality (issue 26): every product of the FAQ development set becomes its own
 * knowledge base (a temp SQLite file through the server's migrations, store and retriever), and
 * every question is asked through the real chat service, twice: once with an assistant of schema
 * defaults (what a visitor sees: the default threshold, the fallback and what it links) and once
 * with the threshold at 0 (the answer text behind every fallback, for the confidence AUROC).
 * Products are split into tuning and held-out halves (faq.ts); both halves are reported.
 */
import path from 'node:path';
import { createExtractiveProvider } from '../../../server/src/answer/providers/extractive.js';
import { assistantConfigSchema } from '../../../server/src/assistants/schemas.js';
import { createAssistantStore } from '../../../server/src/assistants/service.js';
import { createChatService } from '../../../server/src/chat/service.js';
import { createConversationStore } from '../../../server/src/conversations/store.js';
import { systemClock } from '../../../server/src/lib/clock.js';
import { REPO_ROOT } from '../../../server/src/paths.js';
import { createWebhookEvents } from '../../../server/src/webhooks/events.js';
import { faqHalfOf, judgeFaq, loadFaqDir, summarizeFaq, type FaqJudged, type FaqProduct } from './faq.js';
import { auroc } from './metrics.js';
import { openTempKnowledgeBase, type TempKnowledgeBase } from './temp-knowledge.js';

/** The shared development set, beside the repository. */
export const SHARED_FAQ_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'faq');

const K = 5;

/** The product's pages as a temp knowledge base (their URLs from the product's site). */
export function openFaqKnowledgeBase(product: FaqProduct): Promise<TempKnowledgeBase> {
  return openTempKnowledgeBase(
    product.product,
    product.documents.map((d) => ({
      title: d.title,
      content: d.content,
      format: d.format === 'text' ? 'text' : 'markdown',
      url: product.site && d.path ? new URL(d.path, product.site).href : null,
    })),
  );
}

/** Asks every question of one product; returns them judged. */
export async function askFaqProduct(product: FaqProduct): Promise<FaqJudged[]> {
  const kb = await openFaqKnowledgeBase(product);
  try {
    const { storage, retriever, kbs, organizationId } = kb;
    const at = new Date().toISOString();
    const assistants = createAssistantStore(storage);
    const visitorView = await assistants.create(
      organizationId,
      'api',
      assistantConfigSchema.parse({ name: 'FAQ', knowledgeBases: kbs }),
      at,
    );
    const everyAnswer = await assistants.create(
      organizationId,
      'api',
      assistantConfigSchema.parse({ name: 'FAQ 0', knowledgeBases: kbs, confidenceThreshold: 0 }),
      at,
    );
    const chat = createChatService({
      storage,
      clock: systemClock,
      retriever,
      conversations: createConversationStore(storage),
      providers: { extractive: createExtractiveProvider() },
      webhooks: createWebhookEvents(storage, systemClock),
    });
    const titles = new Set(product.documents.map((d) => d.title));
    const judged: FaqJudged[] = [];
    for (const q of product.questions) {
      const hits = await retriever.retrieve(q.question, kbs, K);
      const retrievedTitles = [...new Set(hits.map((h) => h.title))];
      const seen = await chat.chat({ assistant: visitorView, message: q.question, sessionId: null, metadata: {}, channel: 'api' });
      const zero = await chat.chat({ assistant: everyAnswer, message: q.question, sessionId: null, metadata: {}, channel: 'api' });
      // What the reply offers: its sources and, on a fallback, any suggestion that names a page.
      const offeredTitles = [...new Set([...seen.sources.map((s) => s.title), ...seen.suggestions.filter((s) => titles.has(s))])];
      judged.push(
        judgeFaq(product.product, q, {
          response: seen.response,
          fallback: seen.fallback,
          confidence: zero.confidence,
          offeredTitles,
          retrievedTitles,
          unthresholdedResponse: zero.response,
        }),
      );
    }
    return judged;
  } finally {
    kb.close();
  }
}

export interface FaqBenchOptions {
  /** A folder of product files; default ../shared/data/faq. */
  dir?: string | undefined;
  /** Only these products (by name). */
  products?: readonly string[] | undefined;
}

export async function runFaqBench(opts: FaqBenchOptions = {}) {
  const dir = path.resolve(opts.dir ?? SHARED_FAQ_DIR);
  const products = loadFaqDir(dir).filter((p) => !opts.products?.length || opts.products.includes(p.product));
  const judged: FaqJudged[] = [];
  for (const p of products) judged.push(...(await askFaqProduct(p)));
  const half = (h: 'tuning' | 'heldOut') => judged.filter((j) => j.half === h);
  const perProduct = Object.fromEntries(
    products.map((p) => [
      p.product,
      {
        half: faqHalfOf(p.product),
        ...summarizeFaq(
          judged.filter((j) => j.product === p.product),
          auroc,
        ),
      },
    ]),
  );
  return {
    dir: path.relative(process.cwd(), dir) || dir,
    split: {
      tuning: products.filter((p) => faqHalfOf(p.product) === 'tuning').map((p) => p.product),
      heldOut: products.filter((p) => faqHalfOf(p.product) === 'heldOut').map((p) => p.product),
    },
    tuning: summarizeFaq(half('tuning'), auroc),
    heldOut: summarizeFaq(half('heldOut'), auroc),
    perProduct,
    judged,
  };
}

export type FaqBenchResult = Awaited<ReturnType<typeof runFaqBench>>;

/** Misses of the tuning half, for reading (never the held-out ones: they are reported, not tuned on). */
export function faqTuningMisses(result: FaqBenchResult, limit = 40) {
  return result.judged
    .filter((j) => j.half === 'tuning' && j.outcome !== 'right' && !(j.outcome === 'fallback' && !j.answerable))
    .slice(0, limit)
    .map((j) => ({
      product: j.product,
      question: j.question.question,
      gold: j.question.doc ?? '(unanswerable)',
      expected: j.question.answers,
      outcome: j.outcome,
      helpfulFallback: j.helpfulFallback,
      confidence: Math.round(j.reply.confidence * 1000) / 1000,
      top: j.reply.retrievedTitles.slice(0, 3),
      answer: j.reply.unthresholdedResponse.slice(0, 240),
    }));
}

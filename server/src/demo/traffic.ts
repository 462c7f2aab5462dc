import type { Assistant, AssistantStore } from '../assistants/service.js';
import { conversationRollups } from '../analytics/conversation-rollups.js';
import { knowledgeGapHooks } from '../chat/conversation-hooks.js';
import { createChatService, type ChatService } from '../chat/service.js';
import type { AppContext } from '../context.js';
import { combineHooks, createConversationStore, type ConversationStore } from '../conversations/store.js';
import { createHybridRetriever } from '../knowledge/embeddings/hybrid.js';
import { createRetriever } from '../knowledge/retrieval.js';
import type { Clock } from '../lib/clock.js';
import { seededRandom } from '../lib/seeded-random.js';
import { DEMO_TRAFFIC_PENDING } from './seed.js';

/**
 * Demo traffic (issue 13): realistic conversations over the past 90 days written THROUGH THE
 * REAL CHAT PATH (the chat service: templates, retrieval, the answerer, the fallback, knowledge
 * gaps, the analytics triggers), each worker with its own clock set to the moment of the turn,
 * so the dashboard's charts, gaps and queues have something to show. Deterministic: the same
 * seed gives the same questions, channels, times, ratings and handoffs.
 */

/** Questions the demo handbook (demo/knowledge) answers, in the words users use. */
export const ON_TOPIC = [
  'How do I install Parley?',
  'How do I start the server?',
  'Which environment variables can I set?',
  'How do I create an account?',
  'How do I back up my data?',
  'How do I add the chat widget to my website?',
  'How do I embed the widget?',
  'Why does the widget say my origin is not allowed?',
  'How do I change the widget colors?',
  'Can users ask for a human?',
  'How do I create an API key?',
  'What permissions can an API key have?',
  'How do I limit a key to one assistant?',
  'Can I restrict an API key by IP address?',
  'How do I rotate an API key?',
  'How do I revoke an API key?',
  'How do I create a knowledge base?',
  'How do I add documents to a knowledge base?',
  'What do knowledge base priorities do?',
  'How can I test retrieval?',
  'How do I create an assistant?',
  'How do I set the answer language?',
  'How do I write a system prompt?',
  'What are response templates?',
  'What happens when the assistant is unsure?',
  'Which models can I use?',
  'How do I send a message with the API?',
  'How do I continue a conversation?',
  'How do I stream the answer?',
  'How do I read the conversation history?',
  'What are the rate limits?',
  'How do I connect Discord?',
  'How do I connect Slack?',
  'How do I connect Microsoft Teams?',
  'Which commands do the chat bots understand?',
  'Which API key does a connector need?',
  'Where can I see metrics?',
  'What are knowledge gaps?',
];

/** Questions the handbook cannot answer: they become knowledge gaps (some asked often). */
export const OFF_TOPIC = [
  'Do you have a mobile app?',
  'Can I pay with PayPal?',
  'Is there a hosted cloud version?',
  'Do you support SAML single sign-on?',
  'How much does the enterprise plan cost?',
  'Can I export my data to Salesforce?',
  'Is Parley GDPR certified?',
  'Do you offer phone support?',
  'What is the weather in Paris?',
  'Can the assistant book meetings?',
  'Does Parley support voice calls?',
  'Who won the football world cup in 1998?',
];

const PHRASINGS: ((q: string) => string)[] = [
  (q) => q,
  (q) => q,
  (q) => q,
  (q) => `Hi! ${q}`,
  (q) => q.replace(/\?$/, ', please?'),
  (q) => `Quick question: ${q.charAt(0).toLowerCase()}${q.slice(1)}`,
  (q) => q.replace(/\?$/, ''),
];

const CHANNEL_MIX: { channel: 'widget' | 'api'; source: string | null; weight: number }[] = [
  { channel: 'widget', source: null, weight: 50 },
  { channel: 'api', source: null, weight: 15 },
  { channel: 'api', source: 'slack', weight: 17 },
  { channel: 'api', source: 'discord', weight: 10 },
  { channel: 'api', source: 'teams', weight: 8 },
];

const DAY_MS = 86_400_000;
const RATING_COMMENTS = ['Not what I asked', 'Too vague', 'The link did not help', 'Outdated'];

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;

/** One conversation's plan, decided from its own random stream: the order of execution does not matter. */
interface Plan {
  startMs: number;
  channel: 'widget' | 'api';
  source: string | null;
  userId: string;
  questions: string[];
  rate: number;
  handoff: number;
  agentReply: number;
  sessionId: string;
}

function planConversation(seed: number, index: number, nowMs: number, days: number): Plan {
  const rand = seededRandom(seed * 1_000_003 + index);
  // More traffic lately (growth) and in working hours (UTC 7-19), some at night.
  const day = Math.floor(Math.sqrt(rand()) * days);
  const hour = rand() < 0.8 ? 7 + Math.floor(rand() * 12) : Math.floor(rand() * 24);
  const startMs = Math.min(nowMs - 60_000, nowMs - (days - day) * DAY_MS + hour * 3_600_000 + Math.floor(rand() * 3_600_000));
  let w = rand() * CHANNEL_MIX.reduce((s, c) => s + c.weight, 0);
  const mix = CHANNEL_MIX.find((c) => (w -= c.weight) < 0) ?? (CHANNEL_MIX[0] as (typeof CHANNEL_MIX)[number]);
  const turns = rand() < 0.55 ? 1 : rand() < 0.75 ? 2 : 3;
  const questions = Array.from({ length: turns }, () => {
    // Off-topic questions follow a skewed distribution: a few are asked again and again.
    const q = rand() < 0.18 ? (OFF_TOPIC[Math.floor(rand() ** 2 * OFF_TOPIC.length)] as string) : pick(rand, ON_TOPIC);
    return pick(rand, PHRASINGS)(q);
  });
  return {
    startMs,
    channel: mix.channel,
    source: mix.source,
    userId: `demo-user-${1 + Math.floor(rand() * 400)}`,
    questions,
    rate: rand(),
    handoff: rand(),
    agentReply: rand(),
    sessionId: `demo_${seed}_${index}`,
  };
}

export interface TrafficResult {
  conversations: number;
  messages: number;
  ms: number;
}

/**
 * Writes `conversations` conversations spread over the `days` before `nowMs` through chat
 * services built on `ctx` (a clock each), `workers` at a time so commits group.
 */
export async function seedTraffic(
  ctx: AppContext,
  assistants: AssistantStore,
  opts: {
    organizationId: string;
    assistantId: string;
    nowMs: number;
    conversations?: number;
    days?: number;
    seed?: number;
    workers?: number;
    /** Stops between conversations (shutdown). */
    signal?: AbortSignal | undefined;
  },
): Promise<TrafficResult> {
  const t0 = performance.now();
  const total = opts.conversations ?? 3000;
  const days = opts.days ?? 90;
  const seed = opts.seed ?? 42;
  const assistant = await assistants.get(opts.organizationId, opts.assistantId);
  if (!assistant) throw new Error(`seedTraffic: no assistant ${opts.assistantId}`);
  const conversations = createConversationStore(ctx.storage, combineHooks(conversationRollups, knowledgeGapHooks));
  const retriever = createHybridRetriever({ bm25: createRetriever(ctx.storage) });
  // Oldest first, so the idle ender and the gaps see time move forward.
  const plans = Array.from({ length: total }, (_v, i) => planConversation(seed, i, opts.nowMs, days)).sort((a, b) => a.startMs - b.startMs);
  let messages = 0;
  let finished = 0;
  let next = 0;
  const worker = async () => {
    let at = 0;
    const clock: Clock = { now: () => at };
    const chat = createChatService({
      storage: ctx.storage,
      clock,
      retriever,
      conversations,
      providers: ctx.providers,
      webhooks: ctx.webhooks,
      logger: ctx.logger,
    });
    while (next < plans.length && !opts.signal?.aborted) {
      const plan = plans[next++] as Plan;
      at = plan.startMs;
      const written = await runConversation(ctx, chat, conversations, assistant, plan, (ms) => {
        at = ms;
      });
      messages += written;
      finished += 1;
    }
  };
  await Promise.all(Array.from({ length: opts.workers ?? 4 }, worker));
  // Fewer than asked when shutdown stopped it part-way.
  return { conversations: finished, messages, ms: Math.round(performance.now() - t0) };
}

async function runConversation(
  ctx: AppContext,
  chat: ChatService,
  store: ConversationStore,
  assistant: Assistant,
  plan: Plan,
  setClock: (ms: number) => void,
): Promise<number> {
  let t = plan.startMs;
  let written = 0;
  let lastFallback = false;
  let conversationId = '';
  const answered: string[] = [];
  for (const question of plan.questions) {
    setClock(t);
    const r = await chat.chat({
      assistant,
      message: question,
      sessionId: plan.sessionId,
      channel: plan.channel,
      metadata: { userId: plan.userId, ...(plan.source && { source: plan.source }) },
    });
    written += 2;
    conversationId = r.conversation.id;
    lastFallback = r.fallback;
    if (!r.fallback) answered.push(r.messageId);
    t += 20_000 + plan.rate * 40_000;
  }
  const iso = new Date(t).toISOString();
  // About a third of answers get a rating, four in five of them up.
  const rated = answered[0];
  if (rated && plan.rate < 0.33) {
    const down = plan.rate < 0.066;
    await store.rate(conversationId, rated, down ? 'down' : 'up', down ? pick(seededRandom(plan.startMs), RATING_COMMENTS) : null, iso);
  }
  // A fallback on the widget or a chat platform: some users ask for a human; an agent answers most.
  if (lastFallback && plan.handoff < 0.35) {
    await store.requestHandoff(conversationId, iso, { email: `${plan.userId}@example.com`, note: null });
    if (plan.agentReply < 0.7) {
      await ctx.storage.tx((tx) =>
        store.append(
          tx,
          conversationId,
          [
            {
              role: 'human_agent',
              content: 'Hi, this is Sam from the Parley team: let me look into this for you.',
              metadata: { author: 'demo-agent' },
            },
          ],
          new Date(t + 5 * 60_000).toISOString(),
        ),
      );
      written++;
    }
  }
  return written;
}

/**
 * `npm start` on a new demo database: writes the demo traffic once, in the background after
 * listen (about 3,000 conversations take several seconds; the server answers meanwhile). The
 * flag is cleared first, so an interrupted run is not repeated over itself.
 */
export async function seedPendingDemoTraffic(
  ctx: AppContext,
  assistants: AssistantStore,
  opts: { nowMs: number; conversations?: number | undefined; signal?: AbortSignal },
): Promise<TrafficResult | null> {
  const conversations = opts.conversations ?? 3000;
  const pending = await ctx.storage.get('SELECT 1 AS one FROM settings WHERE key = ?', [DEMO_TRAFFIC_PENDING]);
  const assistantId = (await ctx.storage.get<{ value: string }>("SELECT value FROM settings WHERE key = 'demo_assistant_id'"))?.value;
  const org = assistantId
    ? await ctx.storage.get<{ id: string }>('SELECT organization_id AS id FROM assistants WHERE id = ?', [assistantId])
    : undefined;
  if (!pending || !assistantId || !org) return null;
  await ctx.storage.run('DELETE FROM settings WHERE key = ?', [DEMO_TRAFFIC_PENDING]);
  if (conversations === 0) return null;
  return seedTraffic(ctx, assistants, { organizationId: org.id, assistantId, nowMs: opts.nowMs, conversations, signal: opts.signal });
}

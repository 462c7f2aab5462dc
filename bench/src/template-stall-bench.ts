/**
 * `npm run bench:templates` (issue 24): does matching templates delay other requests?
 *
 * A real server (SQLite in memory) with a web assistant whose 200 saved templates are the
 * costliest the limits allow (answer/templates.ts: distinct `[^b]{1,100}b<i>` regexes, each a
 * fresh automaton for re2js to build), then widget messages of 4,000 characters of text that
 * keeps every repetition's threads alive. While each message is in flight, /healthz is polled
 * back to back; its latency is the time the event loop was held. The unbounded figure before
 * the fix (the 20 × `[^b]{1,1000}b<i>`) is measured in-process on re2js directly, as the
 * server now refuses those patterns. Target: /healthz under 50 ms during a widget message.
 *
 * Options: --messages N (default 20; the widget allows 30 a minute from one address).
 */
import { RE2JS } from 're2js';
import { MATCH_BUDGET_MS } from '../../server/src/answer/templates.js';
import { client, registerAccount } from '../../server/test/http.js';
import { startServer } from '../../server/test/test-server.js';
import { round, summarize } from './stats.js';

const TEMPLATES = 200;
const MESSAGE_CHARS = 4000;

/** Text with no `b`: every `[^b]{1,100}` thread stays alive to the end. Varied so no two messages share automaton states. */
function hostileMessage(i: number): string {
  const words = ['alpha', 'gamma', 'delta', 'kappa', 'sigma', 'omega', 'zeta', 'theta', 'iota', 'rho'];
  let s = '';
  for (let k = 0; s.length < MESSAGE_CHARS; k++) s += `${words[(k * 7 + i) % words.length]}${k % 10 === i % 10 ? '!' : ''} `;
  return s.slice(0, MESSAGE_CHARS);
}

/** The old, unbounded cost: 20 thousand-wide repetitions on one message, first use (ms of blocking CPU). */
function unboundedMs(): number {
  const message = 'a'.repeat(MESSAGE_CHARS);
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) RE2JS.compile(`[^b]{1,1000}b<${i}>`, RE2JS.CASE_INSENSITIVE).test(message);
  return performance.now() - t0;
}

export async function runTemplateStallBench(messages = 20) {
  const server = await startServer({ config: { logLevel: 'error' } });
  try {
    const owner = await registerAccount(server.url);
    const templates = Array.from({ length: TEMPLATES }, (_, i) => ({ trigger: `[^b]{1,100}b<${i}>`, match: 'regex', response: `t${i}` }));
    const created = await owner.api.post('/v1/assistants', { type: 'web', name: 'Worst case', templates });
    if (created.status !== 201) throw new Error(`assistant: ${created.status} ${created.text}`);
    const plain = await owner.api.post('/v1/assistants', { type: 'web', name: 'No templates' });
    const withTemplates = await measure(server.url, created.body.data.id as string, messages, 0);
    // The same messages to an assistant without templates: what a widget message costs anyway.
    const baseline = await measure(server.url, plain.body.data.id as string, Math.min(messages, 8), 100);
    return {
      templates: TEMPLATES,
      messageChars: MESSAGE_CHARS,
      budgetMs: MATCH_BUDGET_MS,
      messages,
      withTemplates,
      baseline,
      unboundedBeforeMs: round(unboundedMs(), 1),
    };
  } finally {
    await server.close();
  }
}

async function measure(url: string, appId: string, messages: number, offset: number) {
  const anon = client(url);
  const health = client(url);
  const healthMs: number[] = [];
  const worstPerMessage: number[] = [];
  const chatMs: number[] = [];
  // One message first: the server's first request of a kind pays for JIT compilation and module loading.
  await anon.post(`/v1/widget/${appId}/chat`, { message: 'warm up' }, { headers: { origin: url } });
  await health.get('/healthz');
  {
    for (let i = offset; i < offset + messages; i++) {
      let done = false;
      const t0 = performance.now();
      const chat = anon.post(`/v1/widget/${appId}/chat`, { message: hostileMessage(i) }, { headers: { origin: url } }).finally(() => {
        done = true;
        chatMs.push(performance.now() - t0);
      });
      let worst = 0;
      do {
        const h0 = performance.now();
        const res = await health.get('/healthz');
        if (res.status !== 200) throw new Error(`/healthz ${res.status}`);
        const ms = performance.now() - h0;
        healthMs.push(ms);
        worst = Math.max(worst, ms);
      } while (!done);
      const res = await chat;
      if (res.status !== 200) throw new Error(`widget chat ${res.status} ${res.text}`);
      worstPerMessage.push(worst);
    }
  }
  return { healthzMs: summarize(healthMs), worstHealthzPerMessageMs: summarize(worstPerMessage), widgetChatMs: summarize(chatMs) };
}

type Result = Awaited<ReturnType<typeof runTemplateStallBench>>;

/** The `npm run bench` section's table rows. */
export function templateStallRows(r: Result): Array<[string, string, string]> {
  const m = r.withTemplates;
  return [
    [
      `/healthz during a widget message, ${r.templates} worst-case regex templates`,
      `p50 ${m.healthzMs.p50} ms`,
      `worst per message p50 ${m.worstHealthzPerMessageMs.p50} ms, max ${m.worstHealthzPerMessageMs.p99} ms ` +
        `(${r.messages} messages of ${r.messageChars} chars); without templates p50 ${r.baseline.healthzMs.p50} ms; target < 50 ms`,
    ],
    ['unbounded before issue 24: 20 × [^b]{1,1000}b<i>, one message', `${r.unboundedBeforeMs} ms`, 'blocking CPU, in-process'],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--messages');
  const r = await runTemplateStallBench(at > 0 ? Number(process.argv[at + 1]) : 20);
  console.log(`templates: ${r.templates} saved [^b]{1,100}b<i> regexes, ${r.messages} widget messages of ${r.messageChars} characters`);
  for (const [name, m] of [
    ['200 worst-case templates', r.withTemplates],
    ['no templates (baseline)', r.baseline],
  ] as const) {
    console.log(
      `${name}: /healthz during a widget message median ${m.healthzMs.p50} ms, p99 ${m.healthzMs.p99} ms ` +
        `(${m.healthzMs.n} requests); worst per message median ${m.worstHealthzPerMessageMs.p50} ms, ` +
        `max ${m.worstHealthzPerMessageMs.p99} ms; widget message median ${m.widgetChatMs.p50} ms`,
    );
  }
  console.log(`target: /healthz < 50 ms; regex budget ${r.budgetMs} ms a message`);
  console.log(`before the bounds (in-process): 20 × [^b]{1,1000}b<i> on one message held the loop ${r.unboundedBeforeMs} ms`);
}

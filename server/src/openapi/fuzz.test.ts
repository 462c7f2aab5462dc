import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../test/http.js';
import { freePort, killGroup, startMain } from '../../test/main-process.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { buildOpenApiDocument } from './document.js';
import { bodyArbitrary } from '../../test/fuzz-arbitrary.js';
import {
  FUZZ_CLASSES,
  generateCases,
  jsonBodyOf,
  listOperations,
  type FuzzCase,
  type FuzzClass,
  type ParamResolver,
  type RouteShape,
} from '../../test/fuzz-cases.js';
import type { RouteDoc } from './registry.js';
import { ROUTE_DOCS } from './routes/index.js';

/**
 * Walks the documented API with bad input of every class (fuzz-cases.ts) and a property-based
 * pass over every JSON body: never a 500, every refusal a 4xx in the route's documented error
 * shape, every answer within 2 s. One server for the file; requests run 4 at a time.
 */

const ANSWER_WITHIN_MS = 2000;
const CONCURRENCY = 4;
const ALLOWED_ORIGIN = 'https://shop.example.com';
const EVIL_ORIGIN = 'https://evil.example.net';
const PROPERTY_RUNS_PER_ROUTE = 12;

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const operations = listOperations(doc);

let server: TestServer;
/** Several all-permission keys, round robin: the fuzz is many requests, rate limits are per key. */
let keys: string[] = [];
let nextKey = 0;
let nextIp = 0;
const own: Record<string, string> = {};
const foreign: Record<string, string> = {};

/** Which fixture a path parameter names: by the resource its path starts with. */
const resolveParam: ParamResolver = (routePath, name, which) => {
  const ids = which === 'own' ? own : foreign;
  const resource = routePath.split('/')[2] ?? '';
  const byName: Record<string, string | undefined> = {
    docId: ids.docId,
    appId: ids.assistantId,
    rest: 'chat',
    name: which === 'own' ? 'faq' : 'zz-other',
    sessionId: routePath.startsWith('/v1/widget/') ? ids.widgetSessionId : ids.sessionId,
  };
  const byResource: Record<string, string | undefined> = {
    assistants: ids.assistantId,
    apps: ids.assistantId,
    integrations: ids.assistantId,
    'knowledge-bases': ids.kbId,
    'api-keys': ids.keyId,
    webhooks: ids.webhookId,
    organizations: ids.orgId,
  };
  return (name === 'id' ? byResource[resource] : byName[name]) ?? `zz_${which}_${name}`;
};

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  ms: number;
}

async function send(c: { method: string; url: string; headers?: Record<string, string>; body?: Uint8Array }, auth = true): Promise<Answer> {
  const headers: Record<string, string> = {
    origin: ALLOWED_ORIGIN,
    // trust proxy 1: each request its own client IP, so per-IP abuse limits do not hide what is behind them.
    'x-forwarded-for': `10.${(nextIp >> 16) & 255}.${(nextIp >> 8) & 255}.${nextIp++ & 255}`,
    ...(auth ? { authorization: `Bearer ${keys[nextKey++ % keys.length]}` } : {}),
    ...c.headers,
  };
  const started = performance.now();
  const res = await fetch(server.url + c.url, {
    method: c.method,
    headers,
    body: c.body as BodyInit | undefined,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, ms: Math.round(performance.now() - started) };
}

async function runPool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let i = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (i < items.length) {
        const at = i++;
        out[at] = await fn(items[at] as T);
      }
    }),
  );
  return out;
}

const GENERAL_CODES = [
  'validation_error',
  'authentication_error',
  'permission_denied',
  'resource_not_found',
  'conflict',
  'payload_too_large',
  'rate_limit_exceeded',
  'server_error',
  'unavailable',
] as const;
const FORM1_CODES = [
  'INVALID_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'UNAVAILABLE',
] as const;
const ERROR_SHAPES: Record<string, z.ZodType> = {
  Error: z.object({ status: z.literal('error'), error: z.object({ code: z.enum(GENERAL_CODES), message: z.string().min(1) }) }),
  ErrorForm1: z.object({ error: z.object({ code: z.enum(FORM1_CODES), message: z.string().min(1) }) }),
};

function routeDoc(method: string, routePath: string): RouteDoc | undefined {
  return ROUTE_DOCS.find((d) => d.method === method.toLowerCase() && d.path === routePath);
}

function successSchema(d: RouteDoc): z.ZodType | null {
  const s = d.success;
  if (s.kind === 'envelope') return z.object({ status: z.literal('success'), data: s.data });
  if (s.kind === 'paginated')
    return z.object({
      status: z.literal('success'),
      data: z.array(s.item),
      pagination: z.object({ total: z.int(), page: z.int(), limit: z.int(), pages: z.int() }),
    });
  if (s.kind === 'bare') return s.schema;
  return null;
}

/** What is wrong with an answer, judged by the document; null when it is right. */
function judge(c: { method: string; route: string; expect: 'reject' | 'tolerate' }, a: Answer): string | null {
  if (a.ms > ANSWER_WITHIN_MS) return `answered after ${a.ms} ms`;
  if (a.status >= 500) return `${a.status}: ${a.text.slice(0, 160)}`;
  if (c.expect === 'reject' && a.status < 400) return `accepted with ${a.status}`;
  const op = doc.paths[c.route]?.[c.method.toLowerCase()] as Json | undefined;
  if (!op) return 'not in the document';
  const documented = op.responses[String(a.status)] as Json | undefined;
  if (!documented)
    return `status ${a.status} is not documented for this route (${Object.keys(op.responses).join(', ')}): ${a.text.slice(0, 120)}`;
  const type = a.headers.get('content-type') ?? '';
  if (a.status >= 400) {
    const shape = String(documented.content?.['application/json']?.schema?.$ref ?? '')
      .split('/')
      .pop() as string;
    let body: unknown;
    try {
      body = JSON.parse(a.text);
    } catch {
      return `${a.status} body is not JSON: ${a.text.slice(0, 80)}`;
    }
    const ok = ERROR_SHAPES[shape]?.safeParse(body).success;
    return ok ? null : `${a.status} not in the ${shape} shape: ${a.text.slice(0, 160)}`;
  }
  if (type.startsWith('text/event-stream')) {
    if (/event: error[\s\S]*?(server_error|INTERNAL_ERROR)/.test(a.text)) return `stream failed: ${a.text.slice(-160)}`;
    return /event: (done|error)/.test(a.text) ? null : 'stream ended without done or error';
  }
  const d = routeDoc(c.method, c.route);
  const schema = d && successSchema(d);
  if (!schema) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(a.text));
    return parsed.success
      ? null
      : `${a.status} not in the documented success shape: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`;
  } catch {
    return `${a.status} success body is not JSON`;
  }
}

async function setUpFixtures(): Promise<void> {
  const make = async (ids: Record<string, string>, label: string) => {
    const acct = await registerAccount(server.url, `Fuzz ${label}`);
    const api = acct.api;
    ids.orgId = acct.organization.id;
    const plan = await api.patch(`/v1/organizations/${ids.orgId}`, { plan: 'enterprise' });
    expect(plan.status).toBe(200);
    const assistant = await api.post('/v1/assistants', {
      type: 'web',
      name: `Fuzz ${label}`,
      widget: { allowedOrigins: [ALLOWED_ORIGIN] },
      fallback: { handoff: { enabled: true }, collectFeedback: true },
    });
    expect(assistant.status).toBe(201);
    ids.assistantId = assistant.body.data.id;
    const kb = await api.post('/v1/knowledge-bases', { name: `KB ${label}` });
    ids.kbId = kb.body.data.id;
    const docRes = await api.post(`/v1/knowledge-bases/${ids.kbId}/documents`, {
      title: 'Returns',
      content: 'Items can be returned within 30 days of delivery for a full refund.',
    });
    ids.docId = docRes.body.data.id;
    await api.patch(`/v1/assistants/${ids.assistantId}`, { knowledgeBases: [{ id: ids.kbId }] });
    const key = await api.post('/v1/api-keys', { name: `target ${label}`, permissions: ['chat'] });
    ids.keyId = key.body.data.id;
    const hook = await api.post('/v1/webhooks', { url: 'https://hooks.example.com/parley', events: ['*'] });
    expect(hook.status).toBe(201);
    ids.webhookId = hook.body.data.id;
    const chat = await api.post(`/v1/integrations/${ids.assistantId}/chat`, {
      message: 'How long do I have to return items?',
      sessionId: `fuzz-${label}-session`,
    });
    expect(chat.status).toBe(200);
    ids.sessionId = chat.body.sessionId;
    const widgetChat = await client(server.url).post(
      `/v1/widget/${ids.assistantId}/chat`,
      { message: 'Can I return items?' },
      { headers: { origin: ALLOWED_ORIGIN } },
    );
    expect(widgetChat.status).toBe(200);
    ids.widgetSessionId = widgetChat.body.data.sessionId;
    return api;
  };
  const api = await make(own, 'own');
  await make(foreign, 'foreign');
  const all = [
    'chat',
    'conversations:read',
    'conversations:write',
    'analytics:read',
    'assistants:read',
    'assistants:write',
    'knowledge_bases:read',
    'knowledge_bases:write',
    'api_keys:write',
    'webhooks:write',
    'organizations:write',
  ];
  keys = [];
  for (let i = 0; i < 6; i++) {
    const k = await api.post('/v1/api-keys', { name: `fuzz ${i}`, permissions: all });
    expect(k.status).toBe(201);
    keys.push(k.body.data.key);
  }
}

const casesByClass = new Map<FuzzClass, FuzzCase[]>();
let propertyRuns = 0;
const timings: number[] = [];

beforeAll(async () => {
  server = await startServer({ config: { trustProxy: 1 } });
  await setUpFixtures();
  for (const op of operations) {
    for (const c of generateCases(op, resolveParam)) {
      const list = casesByClass.get(c.cls) ?? [];
      list.push(c);
      casesByClass.set(c.cls, list);
    }
  }
});
afterAll(async () => {
  await server?.close();
});

describe('fuzz: every documented route, bad input of every class', () => {
  it('generates cases for every class from the document', () => {
    for (const cls of FUZZ_CLASSES) expect(casesByClass.get(cls)?.length ?? 0, cls).toBeGreaterThan(0);
    const routesWithCases = new Set([...casesByClass.values()].flat().map((c) => `${c.method} ${c.route}`));
    // Every route with a parameter, a query or a body is exercised.
    const inputful = operations.filter((o) => (o.op.parameters ?? []).length || jsonBodyOf(o.op));
    expect(routesWithCases.size).toBe(inputful.length);
  });

  for (const cls of FUZZ_CLASSES) {
    it(`${cls}: no 500, refusals are 4xx in the documented shape, within ${ANSWER_WITHIN_MS} ms`, async () => {
      const cases = casesByClass.get(cls) ?? [];
      const answers = await runPool(cases, CONCURRENCY, (c) => send(c));
      const failures: string[] = [];
      answers.forEach((a, i) => {
        const c = cases[i] as FuzzCase;
        timings.push(a.ms);
        const problem = judge(c, a);
        if (problem) failures.push(`${c.method} ${c.route} [${c.name}] → ${problem}`);
      });
      // Prototype keys must never reach Object.prototype (the server runs in this process).
      expect(({} as Json).fuzzPolluted, 'Object.prototype was polluted').toBeUndefined();
      expect(
        failures.length,
        `${failures.length} of ${cases.length} ${cls} cases failed:\n  ${failures.slice(0, 40).join('\n  ')}${failures.length > 40 ? `\n  … and ${failures.length - 40} more` : ''}\n`,
      ).toBe(0);
    });
  }
});

function fillOwn(route: RouteShape): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(resolveParam(route.path, name, 'own')));
}

describe('fuzz: the widget API from a refused origin', () => {
  it('grants no CORS to a disallowed origin, on any widget route or its preflight', async () => {
    const widgetOps = operations.filter((o) => o.path.startsWith('/v1/widget/'));
    expect(widgetOps.length).toBeGreaterThan(3);
    const failures: string[] = [];
    for (const o of widgetOps) {
      const url = fillOwn(o);
      const body = jsonBodyOf(o.op)?.example;
      const a = await send(
        {
          method: o.method.toUpperCase(),
          url,
          headers: { origin: EVIL_ORIGIN, 'content-type': 'application/json', 'access-control-request-method': 'POST' },
          body: body ? Buffer.from(JSON.stringify(body)) : undefined,
        },
        false,
      );
      if (a.status < 400) failures.push(`${o.method} ${url}: ${a.status} for a refused origin`);
      for (const h of [
        'access-control-allow-origin',
        'access-control-allow-methods',
        'access-control-allow-headers',
        'access-control-allow-credentials',
      ]) {
        if (a.headers.get(h) !== null) failures.push(`${o.method.toUpperCase()} ${url}: ${h}: ${a.headers.get(h)}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    // The allowed origin does get its grant: the check above can tell them apart.
    const ok = await send({ method: 'GET', url: `/v1/widget/${own.assistantId}/config` }, false);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
  });
});

describe('fuzz: model.baseUrl pointing inside the network', () => {
  const INTERNAL = [
    'http://127.0.0.1:11434/v1',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:127.0.0.1]:8080/v1',
    'http://2130706433/v1',
    'http://localhost:11434/v1',
  ];

  it('is refused with 400 at save (create and update)', async () => {
    const failures: string[] = [];
    for (const baseUrl of INTERNAL) {
      const model = { provider: 'openai', name: 'llama3', baseUrl };
      const created = await send({
        method: 'POST',
        url: '/v1/assistants',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ type: 'api', name: 'SSRF', model })),
      });
      if (created.status !== 400) failures.push(`POST /v1/assistants ${baseUrl} → ${created.status}`);
      const patched = await send({
        method: 'PATCH',
        url: `/v1/assistants/${own.assistantId}`,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ model })),
      });
      if (patched.status !== 400) failures.push(`PATCH /v1/assistants/{id} ${baseUrl} → ${patched.status}`);
      for (const a of [created, patched])
        if (a.status >= 400 && !ERROR_SHAPES.Error!.safeParse(JSON.parse(a.text)).success)
          failures.push(`${baseUrl}: error shape ${a.text}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

describe('fuzz: catastrophic template regex', () => {
  it('a template ^(a|a)+$ and a message a×34+"!" leave /healthz answering within 2 s', async () => {
    // Its own process: a blocked event loop there must not block this test's clock.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-redos-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const main = await startMain({
      PORT: String(port),
      DATABASE_PATH: path.join(dir, 'db.sqlite'),
      SEED_DEMO: 'false',
      PUBLIC_URL: url,
      LOG_LEVEL: 'silent',
    });
    try {
      const { api, token } = await registerAccount(url, 'ReDoS');
      const created = await api.post('/v1/assistants', {
        type: 'api',
        name: 'ReDoS',
        templates: [{ trigger: '^(a|a)+$', match: 'regex', response: 'matched' }],
      });
      expect([201, 400]).toContain(created.status);
      if (created.status === 201) {
        const chat = fetch(`${url}/v1/integrations/${created.body.data.id}/chat`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ message: `${'a'.repeat(34)}!` }),
          signal: AbortSignal.timeout(ANSWER_WITHIN_MS + 1000),
        }).catch((e: Error) => e);
        await new Promise((r) => setTimeout(r, 100));
        const started = performance.now();
        const health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) }).then(
          (r) => r.status,
          (e: Error) => e.name,
        );
        expect(health, `/healthz after ${Math.round(performance.now() - started)} ms`).toBe(200);
        const answered = await chat;
        expect(answered instanceof Error ? answered.name : answered.status).toBe(200);
      }
    } finally {
      killGroup(main.child, 'SIGKILL');
      await main.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});

// Last but one: valid bodies it finds may change the fixtures (plan, widget origins).
describe('fuzz: property-based bodies', () => {
  it('property-based: arbitrary and mutated JSON bodies never get a 500, always a documented shape', async () => {
    const bodyRoutes = operations.filter((o) => jsonBodyOf(o.op));
    const failures: string[] = [];
    for (const route of bodyRoutes) {
      const body = jsonBodyOf(route.op)!;
      const bodies = bodyArbitrary(body.schema, (body.example ?? {}) as Json);
      await fc.assert(
        fc.asyncProperty(bodies, async (text) => {
          const c = {
            method: route.method.toUpperCase(),
            route: route.path,
            url: fillOwn(route),
            headers: { 'content-type': 'application/json' },
            body: Buffer.from(text),
          };
          const a = await send(c);
          propertyRuns++;
          const problem = judge({ ...c, expect: 'tolerate' }, a);
          if (problem) failures.push(`${c.method} ${c.route} body ${text.slice(0, 120)} → ${problem}`);
          return problem === null;
        }),
        { numRuns: PROPERTY_RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
    expect(failures).toEqual([]);
  });
});

describe('fuzz: run size', () => {
  it('sent every case and kept the answers fast', () => {
    const total = [...casesByClass.values()].reduce((n, l) => n + l.length, 0);
    expect(timings.length).toBe(total);
    const sorted = [...timings].sort((a, b) => a - b);
    const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
    console.log(
      `fuzz: ${total} cases + ${propertyRuns} property runs over ${new Set([...casesByClass.values()].flat().map((c) => c.method + c.route)).size} routes; p50 ${sorted[Math.floor(sorted.length / 2)]} ms, p99 ${p99} ms`,
    );
    expect(p99).toBeLessThan(ANSWER_WITHIN_MS);
  });
});

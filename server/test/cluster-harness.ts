import pg from 'pg';
import { connectTestRedis, REDIS_TEST_URL } from '../src/limits/redis-testing.js';
import { freePort, killGroup, startMain, type Running } from './main-process.js';
import { postgresAdminUrl, scratchPostgresDatabase } from './postgres.js';

/**
 * Two real Parley processes (`server/src/main.ts`, as `npm start` runs it) on one fresh
 * PostgreSQL database and one Redis: the topology of issue 15, on loopback. The database starts
 * empty, so the two processes, started together, race for its migrations (the advisory lock
 * decides). Redis keys carry a prefix of this harness's own. Missing PostgreSQL or Redis throws:
 * these tests fail, they never skip.
 */

export interface Instance {
  name: string;
  port: number;
  base: string;
  env: Record<string, string>;
  proc: Running;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export interface Cluster {
  a: Instance;
  b: Instance;
  /** The database's URL, and a small pool on it to look at rows directly. */
  url: string;
  db: pg.Pool;
  prefix: string;
  /** A call with a bearer token on one instance. */
  call(on: Instance, method: string, path: string, token: string | null, body?: unknown): Promise<Reply>;
  /** SIGKILL of the whole process group; resolves once it has exited and left its port. */
  kill(which: Instance): Promise<void>;
  /**
   * SIGSTOP / SIGCONT of the process group: a paused instance claims nothing (so the other one
   * must), and answers nothing until resumed.
   */
  pause(which: Instance): void;
  resume(which: Instance): void;
  /** The last lines both processes printed: for failure messages. */
  logs(): string;
  /** Starts the instance again on the same port and environment. */
  restart(which: Instance): Promise<void>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** Environment both instances get (on top of the harness's own). */
  env?: Record<string, string>;
}

async function requirePostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    throw new Error(
      `These tests need a real PostgreSQL at ${postgresAdminUrl} (set PARLEY_TEST_POSTGRES_URL, or start it on loopback; CI's .ci/run does): ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  await requirePostgres();
  const redis = await connectTestRedis();
  const scratch = await scratchPostgresDatabase();
  const db = new pg.Pool({ connectionString: scratch.url, max: 3, application_name: 'parley-cluster-test' });
  db.on('error', () => {
    /* an idle connection ended by the server: the next query reconnects */
  });
  const common: Record<string, string> = {
    DATABASE_URL: scratch.url,
    REDIS_URL: REDIS_TEST_URL,
    REDIS_KEY_PREFIX: redis.prefix,
    SEED_DEMO: 'false',
    DEMO_TRAFFIC_CONVERSATIONS: '0',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    FETCH_ALLOW_PRIVATE: 'true',
    ...opts.env,
  };
  const make = async (name: string): Promise<Omit<Instance, 'proc'>> => {
    const port = await freePort();
    return { name, port, base: `http://127.0.0.1:${port}`, env: { ...common, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } };
  };
  const [sa, sb] = [await make('A'), await make('B')];
  // Together: both find an empty database, one migrates, the other waits on the lock and finds nothing to do.
  const started = await Promise.allSettled([startMain(sa.env), startMain(sb.env)]);
  const procs = started.map((s) => (s.status === 'fulfilled' ? s.value : null));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    for (const p of procs) if (p) killGroup(p.child, 'SIGKILL');
    await db.end().catch(() => undefined);
    await scratch.drop().catch(() => undefined);
    await redis.cleanup();
    throw failed.reason;
  }
  const a: Instance = { ...sa, proc: procs[0] as Running };
  const b: Instance = { ...sb, proc: procs[1] as Running };

  const call = async (on: Instance, method: string, path: string, token: string | null, body?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(on.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: kept as text */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  const kill = async (which: Instance): Promise<void> => {
    killGroup(which.proc.child, 'SIGKILL');
    await which.proc.exited;
    await new Promise((r) => setTimeout(r, 200)); // the group's last member leaves the port
  };
  return {
    a,
    b,
    url: scratch.url,
    db,
    prefix: redis.prefix,
    call,
    kill,
    pause: (which) => killGroup(which.proc.child, 'SIGSTOP'),
    resume: (which) => killGroup(which.proc.child, 'SIGCONT'),
    logs: () => [a, b].map((i) => `--- instance ${i.name} ---\n${i.proc.output().split('\n').slice(-40).join('\n')}`).join('\n'),
    async restart(which) {
      which.proc = await startMain(which.env);
    },
    async close() {
      for (const i of [a, b]) killGroup(i.proc.child, 'SIGKILL');
      await Promise.all([a, b].map((i) => i.proc.exited));
      await db.end().catch(() => undefined);
      await scratch.drop().catch(() => undefined);
      await redis.cleanup();
    },
  };
}

/** An organization registered through the API, with its session token. */
export async function registerAccount(c: Cluster, on: Instance): Promise<{ token: string; organizationId: string }> {
  const email = `owner-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@cluster.test`;
  const res = await c.call(on, 'POST', '/v1/auth/register', null, {
    email,
    password: 'cluster-password-1',
    organizationName: 'Cluster Co',
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.data.token, organizationId: res.body.data.organization.id };
}

/** An assistant (type api) on the given knowledge bases, created through the API. */
export async function newAssistant(c: Cluster, on: Instance, token: string, kbIds: string[] = []): Promise<string> {
  const res = await c.call(on, 'POST', '/v1/assistants', token, {
    type: 'api',
    name: `Cluster ${Math.random().toString(36).slice(2, 7)}`,
    knowledgeBases: kbIds.map((id) => ({ id, priority: 5 })),
  });
  if (res.status !== 201) throw new Error(`create assistant: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** A knowledge base created through the API. */
export async function newKnowledgeBase(c: Cluster, on: Instance, token: string, name: string): Promise<string> {
  const res = await c.call(on, 'POST', '/v1/knowledge-bases', token, { name });
  if (res.status !== 201) throw new Error(`create knowledge base: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** Polls `probe` until it returns a value other than undefined; throws after `timeoutMs`. */
export async function pollUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

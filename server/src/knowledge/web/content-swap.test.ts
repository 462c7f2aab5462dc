import { afterEach, describe, expect, it } from 'vitest';
import { sharedPostgresDatabase, type SharedPostgres } from '../../../test/postgres.js';
import { systemClock } from '../../lib/clock.js';
import { createLogger } from '../../lib/logger.js';
import type { Storage } from '../../storage/port.js';
import { createKnowledgeStore, type KnowledgeStore } from '../store.js';
import { swapInContent, type FetchedContent } from './content-swap.js';
import type { JobHooks, JobLease } from './job-types.js';
import { createJobRunner, type JobRunner } from './jobs.js';
import { createGates, until } from '../../../test/wait.js';

// The re-fetch content swap, fenced by the job lease (issue 15), with two instances on one real
// PostgreSQL database: two storages (two pools, as two processes would have), each with its own
// runner and lease owner. Real PostgreSQL whatever the project: leases matter only there.

const AT = '2026-01-01T00:00:00.000Z';
let pg: SharedPostgres | null = null;
const cleanup: (() => Promise<void>)[] = [];
const { gate, openAll } = createGates();
afterEach(async () => {
  openAll(); // first: a runner's stop waits for its running jobs
  for (const f of cleanup.splice(0).reverse()) await f();
  await pg?.drop();
  pg = null;
});

const page = (text: string): FetchedContent => ({
  title: 'Returns',
  bytes: text.length,
  progress: { pagesFetched: 1, pagesIndexed: 1 },
  format: 'html',
  parts: [{ content: `# Returns\n\n${text}`, format: 'markdown', title: 'Returns', url: 'https://a.example/returns' }],
});

async function setup() {
  pg = await sharedPostgresDatabase();
  const a = pg.storage;
  const b = pg.open();
  await a.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
  const storeA = createKnowledgeStore(a);
  const storeB = createKnowledgeStore(b);
  const kb = await storeA.createKb('org_t', { name: 'Web', description: null }, AT);
  const runner = (storage: Storage, perform: JobHooks['perform']): JobRunner => {
    // A 60 s lease: renewals (every 20 s) never interfere; takeovers are forced by expiring it.
    const r = createJobRunner({
      storage,
      clock: systemClock,
      logger: createLogger('silent'),
      pollMs: 50,
      leaseMs: 60_000,
      hooks: {
        perform,
        classify: (err) => ({ message: String(err), transient: false }),
        requeued: async () => undefined,
        failed: async () => undefined,
      },
    });
    cleanup.push(() => r.stop());
    return r;
  };
  /** A web document with content already indexed (the previous fetch), and a re-fetch job for it. */
  const refetch = async (r: JobRunner): Promise<{ documentId: string; jobId: string }> =>
    storeA.write(async (w) => {
      const doc = await w.createPendingDocument(
        kb.id,
        { title: 'Returns', url: 'https://a.example/returns', format: 'html', source: 'url' },
        AT,
      );
      await w.replaceDocumentChunks(
        doc.id,
        'Returns',
        () => [{ title: 'Returns', headings: 'Returns', text: 'old policy: 14 days', anchor: null, url: null, page: null }],
        { bytes: 19 },
        AT,
      );
      return { documentId: doc.id, jobId: (await r.enqueue(w.tx, doc.id, 'fetch')).job.id };
    });
  const job = async (id: string) => {
    const row = await a.get<{ status: string; owner: string | null; epoch: string | number }>(
      'SELECT status, owner, epoch FROM ingest_jobs WHERE id = ?',
      [id],
    );
    return { status: row?.status, owner: row?.owner, epoch: Number(row?.epoch) };
  };
  const texts = async (documentId: string): Promise<string[]> =>
    (await a.all<{ body: string }>('SELECT body FROM chunks WHERE document_id = ? ORDER BY ordinal', [documentId])).map((r) => r.body);
  /** The holder's lease runs out (a stalled process) until `owner` has taken the job over. */
  const takeOver = (id: string, owner: string) =>
    until(`${owner} takes the job over`, async () => {
      await a.run('UPDATE ingest_jobs SET lease_expires_at = ? WHERE id = ? AND owner <> ?', [Date.now() - 1, id, owner]);
      const s = await job(id);
      return s.owner === owner ? s : undefined;
    });
  return { a, b, storeA, storeB, runner, refetch, job, texts, takeOver };
}

describe('re-fetched content swap fenced by the job lease (PostgreSQL, two instances)', () => {
  it('a stalled holder whose lease was taken over swaps nothing; the new holder swaps its content in', async () => {
    const { a, b, storeA, storeB, runner, refetch, job, texts, takeOver } = await setup();
    const holdA = gate();
    const holdB = gate();
    const outcomes: Record<string, string> = {};
    const perform =
      (name: string, store: KnowledgeStore, hold: { opened: Promise<void> }, text: string): JobHooks['perform'] =>
      async (j, _signal, lease) => {
        await hold.opened; // fetched; stalled here before the swap
        outcomes[name] = await swapInContent(store, lease, j.documentId, page(text), AT);
        return 'done';
      };
    const ra = runner(a, perform('a', storeA, holdA, 'policy fetched by A'));
    const rb = runner(b, perform('b', storeB, holdB, 'policy fetched by B'));
    const { documentId, jobId } = await refetch(ra);
    ra.start();
    await until('A holds the job', async () => (await job(jobId)).owner === ra.instanceId);
    rb.start();
    expect(await takeOver(jobId, rb.instanceId)).toMatchObject({ status: 'processing', epoch: 2 });
    holdA.open();
    await until('A tried its swap', async () => outcomes.a !== undefined);
    expect(outcomes.a).toBe('lost');
    expect(await texts(documentId)).toEqual(['old policy: 14 days']); // the old content still serves
    expect(await a.get('SELECT status FROM documents WHERE id = ?', [documentId])).toEqual({ status: 'ready' });
    holdB.open();
    await until('B finished', async () => (await job(jobId)).status === 'done');
    expect(outcomes.b).toBe('swapped');
    expect((await texts(documentId)).join(' ')).toContain('policy fetched by B');
    expect((await texts(documentId)).join(' ')).not.toMatch(/fetched by A|old policy/);
  });

  it("a takeover that comes while the holder's swap transaction is open waits for it: the swap lands under the old epoch, whole", async () => {
    const { a, b, storeA, runner, refetch, job, texts } = await setup();
    const checked = gate();
    const proceed = gate();
    let outcome: string | undefined;
    const ra = runner(a, async (j, _signal, lease) => {
      // The lease check passes, then the swap transaction dawdles (holding the job row FOR SHARE).
      const slow: JobLease = {
        ...lease,
        held: async (q) => {
          const held = await lease.held(q);
          checked.open();
          await proceed.opened;
          return held;
        },
      };
      outcome = await swapInContent(storeA, slow, j.documentId, page('policy fetched by A'), AT);
      return 'done';
    });
    const { documentId, jobId } = await refetch(ra);
    ra.start();
    await checked.opened;
    // Another instance expires and claims the lease meanwhile (what takeOver does): its UPDATE waits on the row lock.
    let takenAt = 0;
    const takeover = b.run('UPDATE ingest_jobs SET lease_expires_at = 0 WHERE id = ?', [jobId]).then(() => {
      takenAt = Date.now();
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(takenAt).toBe(0);
    const releasedAt = Date.now();
    proceed.open();
    await takeover;
    expect(takenAt).toBeGreaterThanOrEqual(releasedAt);
    await until('A tried its swap', async () => outcome !== undefined);
    expect(outcome).toBe('swapped');
    expect((await texts(documentId)).join(' ')).toContain('policy fetched by A');
    expect(await job(jobId)).toMatchObject({ epoch: 1 });
  });
});

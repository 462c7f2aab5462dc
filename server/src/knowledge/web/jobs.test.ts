import { afterEach, describe, expect, it } from 'vitest';
import { sharedPostgresDatabase, type SharedPostgres } from '../../../test/postgres.js';
import { systemClock } from '../../lib/clock.js';
import { createLogger } from '../../lib/logger.js';
import type { Storage } from '../../storage/port.js';
import { createKnowledgeStore } from '../store.js';
import type { JobHooks } from './job-types.js';
import { createJobRunner, type JobRunner } from './jobs.js';
import { createGates, until } from '../../../test/wait.js';

// Job leases (issue 15) with two instances on one real PostgreSQL database: two storages (two
// pools, as two processes would have), each with its own runner and so its own lease owner.

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

interface JobState {
  status: string;
  owner: string | null;
  epoch: number;
  attempts: number;
}

async function setup() {
  pg = await sharedPostgresDatabase();
  const a = pg.storage;
  const other = pg.open();
  await a.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
  const store = createKnowledgeStore(a);
  const kb = await store.createKb('org_t', { name: 'Web', description: null }, AT);
  const runner = (storage: Storage, perform: JobHooks['perform'], leaseMs = 30_000): JobRunner => {
    const r = createJobRunner({
      storage,
      clock: systemClock,
      logger: createLogger('silent'),
      pollMs: 50,
      concurrency: 3,
      leaseMs,
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
  /** Queues `n` fetch jobs (one document each) through `r`; returns their ids. */
  const enqueue = async (r: JobRunner, n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push(
        await store.write(async (w) => {
          const doc = await w.createPendingDocument(
            kb.id,
            { title: `Page ${i}`, url: `https://a.example/${i}`, format: 'html', source: 'url' },
            AT,
          );
          return (await r.enqueue(w.tx, doc.id, 'fetch')).job.id;
        }),
      );
    }
    return ids;
  };
  const job = async (id: string): Promise<JobState> => {
    const row = await a.get<{ status: string; owner: string | null; epoch: string | number; attempts: string | number }>(
      'SELECT status, owner, epoch, attempts FROM ingest_jobs WHERE id = ?',
      [id],
    );
    return { status: row!.status, owner: row!.owner, epoch: Number(row!.epoch), attempts: Number(row!.attempts) };
  };
  /**
   * The holder's lease runs out (what a paused process or a long stall does) until `owner` has
   * taken the job over: expired again each round, since the holder may renew meanwhile.
   */
  const takeOver = (id: string, owner: string): Promise<JobState> =>
    until(`${owner} takes the job over`, async () => {
      await a.run('UPDATE ingest_jobs SET lease_expires_at = ? WHERE id = ? AND owner <> ?', [Date.now() - 1, id, owner]);
      const s = await job(id);
      return s.owner === owner ? s : undefined;
    });
  return { a, b: other as Storage, runner, enqueue, job, takeOver };
}

describe('web document job leases on PostgreSQL (two instances)', () => {
  it('two instances claiming at once never run the same job, and both finish every job once', async () => {
    const { a, b, runner, enqueue, job } = await setup();
    const runs = new Map<string, string[]>();
    const running = new Set<string>();
    let overlaps = 0;
    const perform =
      (name: string): JobHooks['perform'] =>
      async (j) => {
        runs.set(j.id, [...(runs.get(j.id) ?? []), name]);
        if (running.has(j.id)) overlaps++;
        running.add(j.id);
        await new Promise((r) => setTimeout(r, 10 + Math.random() * 30));
        running.delete(j.id);
        return 'done';
      };
    const ra = runner(a, perform('a'));
    const rb = runner(b, perform('b'));
    const ids = await enqueue(ra, 40);
    ra.start();
    rb.start();
    await until(
      'every job done',
      async () => {
        const row = await a.get<{ n: string | number }>("SELECT count(*) AS n FROM ingest_jobs WHERE status = 'done'");
        return Number(row?.n) === ids.length;
      },
      20_000,
    );
    expect(overlaps).toBe(0);
    expect([...runs.values()].filter((who) => who.length !== 1)).toEqual([]);
    expect(runs.size).toBe(ids.length);
    // Both instances took part (3 at a time each, 40 jobs of 10-40 ms).
    const by = [...runs.values()].flat();
    expect(by.filter((w) => w === 'a').length).toBeGreaterThan(0);
    expect(by.filter((w) => w === 'b').length).toBeGreaterThan(0);
    for (const id of ids) expect(await job(id)).toMatchObject({ status: 'done', epoch: 1, attempts: 1, owner: null });
  });

  it('an instance that starts while another runs a job does not take it over', async () => {
    const { a, b, runner, enqueue, job } = await setup();
    const hold = gate();
    const ra = runner(a, async () => {
      await hold.opened;
      return 'done';
    });
    const performedOnB: string[] = [];
    const rb = runner(b, async (j) => {
      performedOnB.push(j.id);
      return 'done';
    });
    const [id] = await enqueue(ra, 1);
    ra.start();
    const held = await until('A holds the job', async () => {
      const s = await job(id!);
      return s.status === 'processing' ? s : undefined;
    });
    expect(held).toMatchObject({ owner: ra.instanceId, epoch: 1 });
    rb.start();
    await new Promise((r) => setTimeout(r, 500)); // ten of B's polls
    expect(performedOnB).toEqual([]);
    expect(await job(id!)).toMatchObject({ status: 'processing', owner: ra.instanceId, epoch: 1 });
    hold.open();
    await until('A finishes it', async () => (await job(id!)).status === 'done');
    expect(performedOnB).toEqual([]);
  });

  it("a stalled holder's expired lease is taken over with epoch + 1, and its later writes are refused", async () => {
    const { a, b, runner, enqueue, job, takeOver } = await setup();
    await a.run('CREATE TABLE lease_probe (job_id text, writer text)');
    const holdA = gate();
    const holdB = gate();
    let aWrote: boolean | null = null;
    // A's heartbeat would renew only after 20 s: A is "stalled" as far as its lease goes.
    const ra = runner(
      a,
      async (j, _signal, lease) => {
        await holdA.opened;
        aWrote = await a.tx(async (tx) => {
          if (!(await lease.held(tx))) return false;
          await tx.run("INSERT INTO lease_probe VALUES (?, 'a')", [j.id]);
          return true;
        });
        return 'done';
      },
      60_000,
    );
    const rb = runner(
      b,
      async (j, _signal, lease) => {
        await holdB.opened;
        await b.tx(async (tx) => {
          if (await lease.held(tx)) await tx.run("INSERT INTO lease_probe VALUES (?, 'b')", [j.id]);
        });
        return 'done';
      },
      60_000,
    );
    const [id] = await enqueue(ra, 1);
    ra.start();
    await until('A holds the job', async () => (await job(id!)).owner === ra.instanceId);
    expect(await job(id!)).toMatchObject({ status: 'processing', epoch: 1, attempts: 1 });
    rb.start();
    const taken = await takeOver(id!, rb.instanceId);
    expect(taken).toMatchObject({ status: 'processing', epoch: 2, attempts: 2 });
    // A wakes up: its document write is refused, and so is its finish.
    holdA.open();
    await until('A done trying', async () => aWrote !== null);
    await new Promise((r) => setTimeout(r, 100));
    expect(aWrote).toBe(false);
    expect(await job(id!)).toMatchObject({ status: 'processing', owner: rb.instanceId, epoch: 2 });
    holdB.open();
    await until('B finishes it', async () => (await job(id!)).status === 'done');
    expect(await a.all('SELECT job_id, writer FROM lease_probe')).toEqual([{ job_id: id, writer: 'b' }]);
  });

  it('a holder whose renewal finds its lease taken over aborts the job and records nothing', async () => {
    const { a, b, runner, enqueue, job, takeOver } = await setup();
    let reason: unknown = null;
    // Lease 1.5 s: A renews every 500 ms.
    const ra = runner(
      a,
      (_j, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            reject(new Error('aborted'));
          });
        }),
      1_500,
    );
    const hold = gate();
    const rb = runner(
      b,
      async () => {
        await hold.opened;
        return 'done';
      },
      1_500,
    );
    const [id] = await enqueue(ra, 1);
    ra.start();
    await until('A holds the job', async () => (await job(id!)).owner === ra.instanceId);
    rb.start();
    expect(await takeOver(id!, rb.instanceId)).toMatchObject({ epoch: 2 });
    await until('A aborted its run', async () => reason !== null, 3_000);
    expect(reason).toBe('lost');
    await new Promise((r) => setTimeout(r, 100));
    expect(await job(id!)).toMatchObject({ status: 'processing', owner: rb.instanceId, epoch: 2 });
    hold.open();
    await until('B finishes it', async () => (await job(id!)).status === 'done');
  });

  it('the job of an instance that died is claimed by a live one once its lease expires, not before', async () => {
    const { b, runner, enqueue, job } = await setup();
    const performed: string[] = [];
    const rb = runner(
      b,
      async (j) => {
        performed.push(j.id);
        return 'done';
      },
      600,
    );
    const [id] = await enqueue(rb, 1);
    // What a holder killed with -9 leaves: its row as it last renewed it, for 800 ms more.
    const expires = Date.now() + 800;
    await b.run(
      "UPDATE ingest_jobs SET status = 'processing', owner = 'inst_dead', epoch = 1, attempts = 1, lease_expires_at = ? WHERE id = ?",
      [expires, id!],
    );
    rb.start();
    await new Promise((r) => setTimeout(r, 400));
    expect(performed).toEqual([]);
    await until('B finishes it', async () => (await job(id!)).status === 'done', 5_000);
    expect(performed).toEqual([id]);
    expect(Date.now()).toBeGreaterThanOrEqual(expires);
    expect(await job(id!)).toMatchObject({ epoch: 2, attempts: 2 });
  });
});

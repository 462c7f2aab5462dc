import { dialectSql } from './dialect-sql.js';
import type { Queryable, SqlValue, Storage, Tx } from './port.js';

/**
 * The one lease scheme of the server's shared work (issue 15): webhook endpoint queues
 * (webhooks/queue.ts), web document jobs (knowledge/web/job-queue.ts) and the embedding backlog's
 * chunks (knowledge/embeddings/postgres-store.ts). With several servers on one PostgreSQL
 * database, a row of work is held by one holder at a time, until a time it renews while it works:
 *
 * - A lease is three columns of a row: `owner` (the holder; NULL: nobody), `epoch` and `expires`
 *   (epoch ms). It is free when nobody holds it, or when another holder's lease expired (a holder
 *   that died or stalled); a holder's own late lease is its to renew, not to claim again.
 * - Claiming sets the holder and the expiry, and adds one to the epoch when the lease changes
 *   hands; the claimer keeps the epoch it got. The (owner, epoch) pair fences: every write about the
 *   work is conditioned on it (`heldBy`, `holds` in the writing transaction, which also locks the
 *   row on PostgreSQL), so a stalled holder that wakes up after a takeover records nothing.
 *   Without an epoch column, the holder must be new for every claim (a token): it fences alone.
 * - Claims pass over rows another claimer has locked (`dialectSql.skipLocked`), so two servers
 *   never wait on each other.
 * - SQLite serves one server per database file (Storage.soleServer): whatever a previous run held
 *   died with it, and `expireAll` at start frees it at once instead of a lease period later.
 *
 * A kind of lease names its columns; the features keep their own statements (a job's claim also
 * changes its status) and build them from the fragments here.
 */
export interface LeaseColumns {
  /** The table holding the leases: a lease table, or the leased rows themselves. */
  readonly table: string;
  /** Its key column. */
  readonly key: string;
  /** The holder's column (default `owner`). */
  readonly owner?: string;
  /** The column that grows when the lease changes hands (default `epoch`); null: the holder is a token. */
  readonly epoch?: string | null;
  /** The expiry column, epoch ms; 0 once released. */
  readonly expires: string;
  /** A released lease's row is deleted (a claims table whose rows are the leases) rather than cleared. */
  readonly deleteOnRelease?: boolean;
}

export interface LeaseKind {
  readonly table: string;
  /**
   * Condition: the lease is free to claim. Parameters `freeParams(holder, now)`: nobody holds it,
   * or another holder's lease has expired.
   */
  readonly free: string;
  /** `free` with its columns qualified by `alias` (an ON CONFLICT DO UPDATE's WHERE needs it). */
  freeOn(alias: string): string;
  freeParams(holder: string, now: number): SqlValue[];
  /** SET list that takes the lease, parameters `takeParams(holder, until)`: epoch + 1 when it changes hands. */
  readonly take: string;
  takeParams(holder: string, until: number): SqlValue[];
  /** SET list that ends the lease (no parameters): nobody's, expired. */
  readonly end: string;
  /** Condition: `holder` holds the lease at `epoch`. Parameters `heldParams(holder, epoch)`. */
  readonly heldBy: string;
  heldParams(holder: string, epoch: number): SqlValue[];
  /**
   * Claims the leases of the rows keyed `keys` in a lease table, creating the rows it lacks, and
   * renews those `holder` holds already: the keys it holds now, with their epochs. Rows another
   * claimer has locked are passed over. In `tx`: commit it before working under the leases.
   */
  claimKeys(tx: Tx, keys: readonly string[], holder: string, now: number, until: number): Promise<Map<string, number>>;
  /** Extends `holder`'s lease of `key` (at `epoch`), or with no key every lease it holds; the rows renewed. */
  renew(q: Queryable, holder: string, until: number, key?: { key: SqlValue; epoch?: number }): Promise<number>;
  /**
   * Whether `holder` still holds `key` at `epoch`. Inside the transaction of a write about the
   * work it also locks the row on PostgreSQL, so a takeover waits for that write to commit:
   * `share` for a write elsewhere, `update` when the transaction changes the lease row itself.
   */
  holds(q: Queryable, key: SqlValue, holder: string, epoch: number, lock?: 'share' | 'update'): Promise<boolean>;
  /** Gives `holder`'s lease of `key` (at `epoch`) up, or every lease it holds; the rows released. */
  release(q: Queryable, holder: string, key?: { key: SqlValue; epoch?: number }): Promise<number>;
  /** On a database that serves one server alone: every lease is dead at start (released); else nothing. */
  expireAll(storage: Storage): Promise<number>;
}

const plain = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL name: ${name}`);
  return name;
};

/** `?, ?, ?` for n values. */
const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export function leaseKind(columns: LeaseColumns): LeaseKind {
  const table = plain(columns.table);
  const key = plain(columns.key);
  const owner = plain(columns.owner ?? 'owner');
  const epochCol = columns.epoch === null ? null : plain(columns.epoch ?? 'epoch');
  const expires = plain(columns.expires);
  // Fenced by (owner, epoch), or by the owner alone where it is a token new for each claim.
  const heldBy = epochCol ? `${owner} = ? AND ${epochCol} = ?` : `${owner} = ?`;
  const heldParams = (holder: string, epoch: number): SqlValue[] => (epochCol ? [holder, epoch] : [holder]);
  const keyed = (k: { key: SqlValue; epoch?: number } | undefined): { sql: string; params: SqlValue[] } => {
    if (!k) return { sql: '', params: [] };
    if (k.epoch === undefined || !epochCol) return { sql: ` AND ${key} = ?`, params: [k.key] };
    return { sql: ` AND ${key} = ? AND ${epochCol} = ?`, params: [k.key, k.epoch] };
  };

  const freeOn = (alias: string): string => {
    const p = alias ? `${plain(alias)}.` : '';
    return `(${p}${owner} IS NULL OR (${p}${expires} <= ? AND ${p}${owner} <> ?))`;
  };
  const kind: LeaseKind = {
    table,
    free: freeOn(''),
    freeOn,
    freeParams: (holder, now) => [now, holder],
    take: epochCol
      ? `${epochCol} = CASE WHEN ${owner} = ? THEN ${epochCol} ELSE ${epochCol} + 1 END, ${owner} = ?, ${expires} = ?`
      : `${owner} = ?, ${expires} = ?`,
    takeParams: (holder, until) => (epochCol ? [holder, holder, until] : [holder, until]),
    end: `${owner} = NULL, ${expires} = 0`,
    heldBy,
    heldParams,

    async claimKeys(tx, keys, holder, now, until) {
      if (!epochCol) throw new Error('claimKeys needs an epoch column');
      if (!keys.length) return new Map();
      // A lease row per key to lock (created once; a concurrent insert of the same row waits, then does nothing).
      await tx.run(
        `INSERT INTO ${table} (${key}, ${owner}, ${epochCol}, ${expires}) VALUES ${keys.map(() => '(?, NULL, 0, 0)').join(', ')}
        ON CONFLICT (${key}) DO NOTHING`,
        [...keys],
      );
      const claimable = await tx.all<{ k: string }>(
        `SELECT ${key} AS k FROM ${table}
        WHERE ${key} IN (${marks(keys.length)}) AND (${owner} = ? OR ${kind.free})
        ORDER BY ${key}${dialectSql(tx).skipLocked}`,
        [...keys, holder, ...kind.freeParams(holder, now)],
      );
      if (!claimable.length) return new Map();
      const ids = claimable.map((r) => r.k);
      const taken = await tx.all<{ k: string; epoch: number }>(
        `UPDATE ${table} SET ${kind.take}
        WHERE ${key} IN (${marks(ids.length)}) RETURNING ${key} AS k, ${epochCol} AS epoch`,
        [...kind.takeParams(holder, until), ...ids],
      );
      return new Map(taken.map((r) => [r.k, Number(r.epoch)]));
    },

    async renew(q, holder, until, k) {
      const where = keyed(k);
      return (await q.run(`UPDATE ${table} SET ${expires} = ? WHERE ${owner} = ?${where.sql}`, [until, holder, ...where.params])).changes;
    },

    async holds(q, k, holder, epoch, lock = 'share') {
      const sql = dialectSql(q);
      const row = await q.get(
        `SELECT 1 AS held FROM ${table} WHERE ${key} = ? AND ${heldBy}${lock === 'share' ? sql.forShare : sql.forUpdate}`,
        [k, ...heldParams(holder, epoch)],
      );
      return row !== undefined;
    },

    async release(q, holder, k) {
      const where = keyed(k);
      const sql = columns.deleteOnRelease ? `DELETE FROM ${table}` : `UPDATE ${table} SET ${kind.end}`;
      return (await q.run(`${sql} WHERE ${owner} = ?${where.sql}`, [holder, ...where.params])).changes;
    },

    async expireAll(storage) {
      if (!storage.soleServer) return 0;
      return (await storage.run(`UPDATE ${table} SET ${expires} = 0 WHERE ${owner} IS NOT NULL AND ${expires} > 0`)).changes;
    },
  };
  return kind;
}

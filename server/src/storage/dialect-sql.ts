import type { Queryable } from './port.js';

/**
 * The SQL fragments that differ between the dialects, for statements written once beside their
 * feature (storage/README.md). Each is empty, or its equivalent, where the dialect needs nothing.
 * Choose once (at a module's creation, or per statement: it is a property read), never by
 * testing `dialect` outside storage/ (wall.test.ts).
 */
export interface DialectSql {
  /**
   * Appended to a SELECT (or a subquery) of rows to claim: concurrent claimers pass over a row
   * another transaction holds instead of queueing behind it. PostgreSQL ` FOR UPDATE SKIP LOCKED`;
   * nothing on SQLite, whose write transactions run one at a time.
   */
  readonly skipLocked: string;
  /**
   * Appended to a SELECT that checks a row the transaction's writes depend on: the row cannot
   * change (a lease be taken over) before this transaction ends. PostgreSQL ` FOR SHARE`; nothing
   * on SQLite.
   */
  readonly forShare: string;
  /** As forShare, for a row this transaction will change: PostgreSQL ` FOR UPDATE`; nothing on SQLite. */
  readonly forUpdate: string;
  /**
   * The value of `column` for a row inserted with VALUES, numbered in insertion order: PostgreSQL
   * `DEFAULT` (an identity column: two transactions never take the same number); on SQLite one
   * past the largest (write transactions run one at a time, so none takes the same).
   */
  nextSerial(table: string, column: string): string;
}

const plainName = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL name: ${name}`);
  return name;
};

const SQLITE: DialectSql = Object.freeze({
  skipLocked: '',
  forShare: '',
  forUpdate: '',
  nextSerial: (table: string, column: string) => `(SELECT COALESCE(MAX(${plainName(column)}), 0) + 1 FROM ${plainName(table)})`,
});

const POSTGRES: DialectSql = Object.freeze({
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  forShare: ' FOR SHARE',
  forUpdate: ' FOR UPDATE',
  nextSerial: (table: string, column: string) => {
    plainName(table);
    plainName(column);
    return 'DEFAULT';
  },
});

/** The fragments for `q`'s dialect (a storage, or a transaction handle). */
export function dialectSql(q: Queryable): DialectSql {
  return q.dialect === 'postgres' ? POSTGRES : SQLITE;
}

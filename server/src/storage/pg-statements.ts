/**
 * Names of the PostgreSQL adapter's prepared statements, by SQL text.
 *
 * pg prepares a named statement once per connection and then only binds and executes it (the
 * server parses and plans the text once per connection instead of at every call). Names are
 * process-wide and never reused for another text. Past `limit` texts (dynamic SQL such as IN
 * lists of every length) new texts run unnamed, so no connection holds more than `limit` plans.
 *
 * A plan whose result columns change under it (ALTER TABLE by a migration of another instance,
 * a column type change) is refused by PostgreSQL with "cached plan must not change result type",
 * on every later call on that connection, because pg keeps the name as already parsed there.
 * `replace()` then gives the text a fresh name: each connection prepares it again against the new
 * schema. The old name stays prepared on the connections that hold it (a few bytes each, gone
 * when the connection closes); replacements count against the limit like new texts.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private issued = 0;

  constructor(
    private readonly limit: number,
    private readonly prefix = 'parley_',
  ) {}

  /** The name to prepare `text` under, or undefined to run it unnamed. */
  nameFor(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === '') return undefined;
    if (name === undefined && this.issued < this.limit) {
      this.issued += 1;
      name = `${this.prefix}${this.issued}`;
      this.names.set(text, name);
    }
    return name;
  }

  /**
   * After `failedName` failed as a stale plan: a new name for `text`, unless another caller
   * already replaced it (concurrent failures on several connections replace it once).
   */
  replace(text: string, failedName: string): void {
    if (this.names.get(text) !== failedName) return;
    this.names.delete(text);
    if (this.issued < this.limit) {
      this.issued += 1;
      this.names.set(text, `${this.prefix}${this.issued}`);
    } else {
      // Out of names: this text runs unnamed from now on (re-parsed at every call, always valid).
      this.names.set(text, '');
    }
  }
}

/**
 * PostgreSQL's refusal to run a prepared plan whose result type changed (SQLSTATE 0A000, raised
 * by RevalidateCachedQuery). Nothing ran: running the statement again under a new name is safe.
 * The routine is checked as well as the code because 0A000 (feature_not_supported) has other
 * causes, and the message may be translated (lc_messages).
 */
export function isStalePlan(err: unknown): boolean {
  const e = err as { code?: unknown; routine?: unknown; message?: unknown } | null;
  if (!e || e.code !== '0A000') return false;
  return (
    e.routine === 'RevalidateCachedQuery' ||
    (typeof e.message === 'string' && e.message.includes('cached plan must not change result type'))
  );
}

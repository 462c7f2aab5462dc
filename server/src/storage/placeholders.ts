import { LRUCache } from 'lru-cache';

/**
 * Rewrites Parley's placeholder style (`?` positional, `@name` named) into PostgreSQL's `$n`.
 * Quoted strings, quoted identifiers and comments are copied untouched, so a literal '?' or an
 * e-mail address inside a string is never taken for a parameter. Results are cached per SQL text
 * because statements are static strings in the code.
 */

export interface NumberedSql {
  text: string;
  /** For `@name` SQL: the name behind each `$n`, in order; empty for positional SQL. */
  names: readonly string[];
  /** How many `$n` the text uses. */
  count: number;
}

/** Bounded: dynamic SQL (IN lists of varying length) must not grow it without bound. */
const cache = new LRUCache<string, NumberedSql>({ max: 2_000 });

export function toNumbered(sql: string): NumberedSql {
  const hit = cache.get(sql);
  if (hit) return hit;
  const out = translate(sql);
  cache.set(sql, out);
  return out;
}

function translate(sql: string): NumberedSql {
  let text = '';
  let positional = 0;
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      text += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      text += sql.slice(i, stop);
      i = stop;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      text += sql.slice(i, stop);
      i = stop;
    } else if (c === '?') {
      positional += 1;
      text += `$${positional}`;
      i += 1;
    } else if (c === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      let j = i + 1;
      while (j < sql.length && /\w/.test(sql[j] as string)) j += 1;
      const name = sql.slice(i + 1, j);
      let n = nameIndex.get(name);
      if (n === undefined) {
        names.push(name);
        n = names.length;
        nameIndex.set(name, n);
      }
      text += `$${n}`;
      i = j;
    } else {
      text += c;
      i += 1;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error('SQL mixes ? and @name placeholders');
  return { text, names, count: positional || names.length };
}

/** Index just past the quote that closes the one at `start` (a doubled quote is an escape). */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i += 1;
  }
  return sql.length;
}

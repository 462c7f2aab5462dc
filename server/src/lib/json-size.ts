/**
 * The UTF-8 size of `JSON.stringify(value)` for a value that came from JSON.parse, counted with
 * an explicit stack instead of recursion, so no nesting depth can overflow the call stack. Counting
 * stops once `limit` is passed (the result is then some number above `limit`).
 */
export function jsonByteLength(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol')
      total += 4; // "null" (only reachable inside arrays)
    else if (typeof v === 'string') total += Buffer.byteLength(JSON.stringify(v));
    else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint')
      total += String(Number.isFinite(v as number) || typeof v !== 'number' ? v : null).length;
    else if (Array.isArray(v)) {
      total += 2 + Math.max(0, v.length - 1);
      for (const item of v) stack.push(item);
    } else {
      const entries = Object.entries(v as Record<string, unknown>).filter(
        ([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol',
      );
      total += 2 + Math.max(0, entries.length - 1);
      for (const [key, x] of entries) {
        total += Buffer.byteLength(JSON.stringify(key)) + 1;
        stack.push(x);
      }
    }
    if (total > limit) return total;
  }
  return total;
}

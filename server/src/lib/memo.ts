/**
 * A bounded memo keyed by text: the answering path analyses the same popular passages question
 * after question. Least recently used entries leave first; values must be treated as read-only.
 */
export function memoByText<T>(compute: (text: string) => T, max = 1_000): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    let value = cache.get(text);
    if (value === undefined) {
      value = compute(text);
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    } else {
      cache.delete(text); // re-inserted below: now the most recently used
    }
    cache.set(text, value);
    return value;
  };
}

/**
 * A bounded memo keyed by text: the answering path analyses the same popular passages question
 * after question. Values must be treated as read-only.
 *
 * Two generations instead of an exact LRU list: a hit in the young map is one lookup (an LRU
 * map pays a delete and a re-insert on every hit, which showed in chat-path profiles); a hit in
 * the old one moves the entry to the young one. When the young map holds `max` entries it
 * becomes the old one and the previous old one is dropped. So every text used among the last
 * `max` distinct texts is kept (as with an LRU list of `max`: a working set of up to `max`
 * passages never misses), and at most 2 × `max` entries are held.
 */
export function memoByText<T>(compute: (text: string) => T, max = 1_000): (text: string) => T {
  const generation = Math.max(1, max);
  let young = new Map<string, T>();
  let old = new Map<string, T>();
  return (text) => {
    let value = young.get(text);
    if (value !== undefined) return value;
    value = old.get(text);
    if (value === undefined) value = compute(text);
    else old.delete(text);
    if (young.size >= generation) {
      old = young;
      young = new Map();
    }
    young.set(text, value);
    return value;
  };
}

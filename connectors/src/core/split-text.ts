/**
 * Splits text into chunks no longer than `limit` (UTF-16 code units, which never undercounts
 * what Discord, Slack or Teams count) without losing a single character: `chunks.join('')`
 * is always the input. It cuts at the last paragraph break inside the window, else the last line
 * break, else the last space, else hard — and a hard cut never separates a surrogate pair, so
 * an emoji is never broken into two invalid halves.
 */
export function splitText(text: string, limit: number): string[] {
  if (!Number.isInteger(limit) || limit < 2) throw new RangeError('limit must be an integer >= 2');
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const cut = findCut(rest, limit);
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length > 0 || chunks.length === 0) chunks.push(rest);
  return chunks;
}

function findCut(text: string, limit: number): number {
  const window = text.slice(0, limit);
  // Separators stay at the end of the chunk they close, so the next chunk starts with content.
  // Cuts at position 0 would make no progress; require at least a quarter of the window so a
  // separator near the start does not produce a string of tiny messages.
  const minCut = Math.floor(limit / 4);
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = window.lastIndexOf(separator);
    if (at >= 0 && at + separator.length > minCut && at + separator.length <= limit) return at + separator.length;
  }
  const code = text.charCodeAt(limit - 1);
  const isHighSurrogate = code >= 0xd800 && code <= 0xdbff;
  return isHighSurrogate ? limit - 1 : limit;
}

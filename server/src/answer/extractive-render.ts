/**
 * How the extractive answer reads: the chosen sentences laid out as prose paragraphs, lists,
 * table lines and code blocks, markdown block syntax taken off the sentences themselves.
 */
import type { SentenceUnit } from '../text/sentences.js';
import type { Sentence } from './sentence-scoring.js';

const LIST_MARKER_RE = /^\s*(?:[-*+\u2022]|(\d{1,9})[.)])\s+/;

/** A sentence without markdown block syntax: heading marks, quote marks, list markers. */
export function displayText(unit: SentenceUnit): string {
  if (unit.kind === 'code') return unit.text;
  return unit.text
    .replace(/^\s*#{1,6}\s+/, '')
    .replace(/^(?:\s*>)+\s?/, '')
    .replace(LIST_MARKER_RE, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function endsSentence(text: string): boolean {
  return /[.!?:;\u2026\u3002\uff01\uff1f]["')\]*_`\u201d\u2019]*$/.test(text);
}

type OutBlock =
  | { type: 'prose'; group: number; parts: string[] }
  | { type: 'list'; items: Array<{ key: string; marker: string; text: string }> }
  | { type: 'lines'; lines: string[] }
  | { type: 'code'; text: string };

/** One list item's marker: its number for ordered lists ("2."), a dash otherwise. */
function listMarker(s: Sentence, isItemStart: boolean): string {
  const number = isItemStart ? LIST_MARKER_RE.exec(s.unit.text)?.[1] : undefined;
  return number ? `${number}.` : '-';
}

/**
 * Lays the selected sentences out: prose from the top passage forms the first paragraph,
 * prose from the others the second; lists stay lists (a lone item reads as prose), code
 * stays fenced, table rows stay on their own lines.
 */
export function layout(selected: Sentence[]): OutBlock[] {
  const listItems = new Set(selected.filter((s) => s.unit.kind === 'list').map((s) => `${s.rank}:${s.unit.block}`));
  const firstRank = selected[0]?.rank ?? 0;
  const blocks: OutBlock[] = [];
  for (const s of selected) {
    const text = displayText(s.unit);
    if (!text) continue;
    const last = blocks[blocks.length - 1];
    if (s.unit.kind === 'code') {
      blocks.push({ type: 'code', text });
    } else if (s.unit.kind === 'table') {
      if (last?.type === 'lines') last.lines.push(text);
      else blocks.push({ type: 'lines', lines: [text] });
    } else if (s.unit.kind === 'list' && listItems.size > 1) {
      const key = `${s.rank}:${s.unit.block}`;
      const isItemStart = LIST_MARKER_RE.test(s.unit.text);
      const item = last?.type === 'list' ? last.items[last.items.length - 1] : undefined;
      if (last?.type === 'list' && item?.key === key) item.text += ` ${text}`;
      else if (last?.type === 'list') last.items.push({ key, marker: listMarker(s, isItemStart), text });
      else blocks.push({ type: 'list', items: [{ key, marker: listMarker(s, isItemStart), text }] });
    } else {
      const group = s.rank === firstRank ? 0 : 1;
      if (last?.type === 'prose' && last.group === group) last.parts.push(text);
      else blocks.push({ type: 'prose', group, parts: [text] });
    }
  }
  return blocks;
}

export function renderBlock(block: OutBlock): string {
  switch (block.type) {
    case 'prose':
      // Sentences lifted from lists or lines may lack a full stop; joined as prose they need one.
      return block.parts.map((p, i) => (i < block.parts.length - 1 && !endsSentence(p) ? `${p}.` : p)).join(' ');
    case 'list':
      return block.items.map((item) => `${item.marker} ${item.text}`).join('\n');
    case 'lines':
      return block.lines.join('\n');
    case 'code':
      return block.text;
  }
}

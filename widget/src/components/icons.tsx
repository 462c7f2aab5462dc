import type { VNode } from 'preact';

// Stroke icons on a 24px grid, drawn by styles.css (fill none, stroke currentColor).
export const CHAT = 'M21 12a8.5 8.5 0 0 1-12.4 7.5L3 21l1.5-5.3A8.5 8.5 0 1 1 21 12z';
export const CLOSE = 'M6 6l12 12M18 6L6 18';
export const SEND = 'M4 12h15M13 6l6 6-6 6';
export const THUMB = 'M7 11v9H4v-9zm0 0 4-8c1.5 0 3 1 3 3v3h5a2 2 0 0 1 2 2.3l-1.2 7A2 2 0 0 1 17.8 20H7';
export const NEW = 'M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z';

export function Icon({ d }: { d: string }): VNode {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}

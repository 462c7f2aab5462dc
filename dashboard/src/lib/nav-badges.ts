import { signal } from '@preact/signals';

/** Conversations waiting for a human, shown beside "Needs a human" in the navigation (kept live by lib/handoffs.ts). */
export const pendingHandoffs = signal(0);

import type { Template } from '../assistants/schemas.js';

const normalise = (s: string): string => s.toLowerCase().replace(/[\p{P}\p{S}]+/gu, ' ').replace(/\s+/g, ' ').trim();

/** The first template whose trigger matches the user's message, in the assistant's order. */
export function matchTemplate(templates: readonly Template[], message: string): Template | null {
  const text = normalise(message);
  for (const t of templates) {
    if (t.match === 'exact' && normalise(t.trigger) === text) return t;
    if (t.match === 'contains' && text.includes(normalise(t.trigger))) return t;
    if (t.match === 'regex' && new RegExp(t.trigger, 'iu').test(message)) return t;
  }
  return null;
}

/** Fills `{{name}}` from variables; unknown placeholders stay visible so mistakes show. */
export function fillVariables(text: string, variables: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => variables[name] ?? whole);
}

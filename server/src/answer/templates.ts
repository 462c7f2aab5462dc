import { RE2JS } from 're2js';
import type { Template } from '../assistants/schemas.js';

/**
 * Regex triggers run on RE2 (re2js, a pure-JS port): time linear in the message whatever the
 * pattern, so `^(a|a)+$` cannot stall the process the way a backtracking RegExp does. The cost
 * is RE2's syntax: no backreferences, no lookaround (refused when the template is saved).
 * Case-insensitive, as the `iu` RegExp it replaces.
 */
const REGEX_FLAGS = RE2JS.CASE_INSENSITIVE;
/** Compiled triggers by pattern; cleared when full (a few assistants' worth of templates). */
const compiled = new Map<string, RE2JS | null>();
const MAX_COMPILED = 2000;

/** Why a regex trigger cannot be used (RE2's parse error), or null when it compiles. */
export function templateRegexProblem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern, REGEX_FLAGS);
    return null;
  } catch (err) {
    return (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
  }
}

function compiledTrigger(pattern: string): RE2JS | null {
  let re = compiled.get(pattern);
  if (re === undefined) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    try {
      re = RE2JS.compile(pattern, REGEX_FLAGS);
    } catch {
      re = null; // saved before RE2 (a lookaround…): it matches nothing rather than failing the chat
    }
    compiled.set(pattern, re);
  }
  return re;
}

const normalise = (s: string): string => s.toLowerCase().replace(/[\p{P}\p{S}]+/gu, ' ').replace(/\s+/g, ' ').trim();

/** The first template whose trigger matches the user's message, in the assistant's order. */
export function matchTemplate(templates: readonly Template[], message: string): Template | null {
  const text = normalise(message);
  for (const t of templates) {
    if (t.match === 'exact' && normalise(t.trigger) === text) return t;
    if (t.match === 'contains' && text.includes(normalise(t.trigger))) return t;
    if (t.match === 'regex' && compiledTrigger(t.trigger)?.test(message)) return t;
  }
  return null;
}

/** Fills `{{name}}` from variables; unknown placeholders stay visible so mistakes show. */
export function fillVariables(text: string, variables: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => variables[name] ?? whole);
}

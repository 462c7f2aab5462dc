import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';

/**
 * Regex triggers run on RE2 (re2js, a pure-JS port): time linear in the message whatever the
 * pattern, so `^(a|a)+$` cannot stall the process the way a backtracking RegExp does. The cost
 * is RE2's syntax: no backreferences, no lookaround (refused when the template is saved).
 * Case-insensitive, as the `iu` RegExp it replaces.
 *
 * Linear is not cheap (issue 24): re2js builds its automaton's states while it reads, and a
 * counted repetition such as `[^b]{1,1000}b` keeps a thousand threads alive in every state:
 * its first run on a 4,000-character message took 130-600 ms of blocking CPU. So the work is
 * bounded three ways: what a pattern may cost (MAX_REPEAT_TOTAL, MAX_PROGRAM_SIZE, refused when
 * saved or tested), how much of the message matching reads (MAX_MATCH_CHARS), and the regex
 * time one message may spend (MATCH_BUDGET_MS). Measured on this machine (first run of a fresh
 * pattern, 1,000 characters): `[^b]{1,100}b` 2-7 ms, `[^b]{1,400}b` 48-100 ms, `{1,1000}` 110-600 ms;
 * a 500-character alternation of plain words (program size ~500) under 1 ms.
 */
const REGEX_FLAGS = RE2JS.CASE_INSENSITIVE;
/** Sum of the upper bounds of a pattern's counted repetitions (`{n}`, `{n,m}`, `{n,}`). */
export const MAX_REPEAT_TOTAL = 100;
/** RE2 program instructions: a 500-character trigger of plain alternatives compiles to ~500. */
export const MAX_PROGRAM_SIZE = 600;
/** Templates match the first this many characters of a message (a trigger is a short phrase). */
export const MAX_MATCH_CHARS = 1000;
/** Regex time one message may spend on templates; past it the remaining templates are skipped. */
export const MATCH_BUDGET_MS = 10;

/** Compiled triggers by pattern (null: unusable), the 2,000 most recently used (a few assistants' worth). */
const compiled = new LRUCache<string, { re: RE2JS | null }>({ max: 2000 });

/**
 * The upper bounds of the counted repetitions in a pattern RE2 accepted, summed. Escapes,
 * `\Q…\E` quoting and character classes are skipped: a `{` there is a literal.
 */
export function repeatTotal(pattern: string): number {
  let total = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      if (pattern[i + 1] === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        i = end < 0 ? pattern.length : end + 1;
      } else i++;
    } else if (c === '[') {
      i = classEnd(pattern, i);
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (m) total += Number(m[3] || m[1]);
    }
  }
  return total;
}

/** The index of the `]` closing the class opened at `start` (a leading `]` or `^]` is a member). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern.startsWith('[:', i)) i = Math.max(i, pattern.indexOf(':]', i + 2) + 1);
    else if (pattern[i] === ']') return i;
  }
  return pattern.length;
}

/** The compiled trigger, or why it cannot be used (RE2's parse error, or too costly). */
function compileTrigger(pattern: string): { re: RE2JS } | { problem: string } {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, REGEX_FLAGS);
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
    return {
      problem: `is not a regular expression RE2 accepts (backreferences and lookaround are not supported): ${reason}`,
    };
  }
  const repeats = repeatTotal(pattern);
  if (repeats > MAX_REPEAT_TOTAL) {
    return {
      problem:
        `repeats too much: its counted repetitions ({n,m}) add up to ${repeats}, at most ${MAX_REPEAT_TOTAL} ` +
        '(use * or + for "any number")',
    };
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) {
    return { problem: `is too complex: it compiles to ${re.programSize()} instructions, at most ${MAX_PROGRAM_SIZE}` };
  }
  return { re };
}

/** Why a regex trigger cannot be used (RE2's parse error, or too costly), or null when it may be. */
export function templateRegexProblem(pattern: string): string | null {
  const c = compileTrigger(pattern);
  return 'problem' in c ? c.problem : null;
}

function compiledTrigger(pattern: string): RE2JS | null {
  let held = compiled.get(pattern);
  if (held === undefined) {
    // Saved before the limits (or before RE2: a lookaround…): it matches nothing rather than failing the chat.
    const c = compileTrigger(pattern);
    held = { re: 're' in c ? c.re : null };
    compiled.set(pattern, held);
  }
  return held.re;
}

const normalise = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export interface MatchOptions {
  /** Regex milliseconds this message may spend (MATCH_BUDGET_MS). */
  budgetMs?: number;
  /** The time source for the budget (performance.now). */
  now?: () => number;
  /** Told when the budget ran out, with the templates left unread. */
  onBudgetSpent?: (skipped: number) => void;
}

/**
 * A canned answer, as an assistant stores it (assistants/schemas.ts validates and defaults it; its
 * inferred `Template` is this shape). Declared here, below assistants/, so matching needs no import upward.
 */
export interface Template {
  id?: string | undefined;
  trigger: string;
  match: 'exact' | 'contains' | 'regex';
  response: string;
}

/**
 * The first template whose trigger matches the user's message, in the assistant's order, reading
 * the first MAX_MATCH_CHARS characters. Once the regex triggers have spent the budget, the rest
 * are skipped (no template fires; onBudgetSpent says how many were left).
 */
export function matchTemplate<T extends Template>(templates: readonly T[], message: string, opts: MatchOptions = {}): T | null {
  const now = opts.now ?? (() => performance.now());
  const budget = opts.budgetMs ?? MATCH_BUDGET_MS;
  const read = message.slice(0, MAX_MATCH_CHARS);
  const text = normalise(read);
  let spent = 0;
  for (const [i, t] of templates.entries()) {
    if (t.match === 'exact' && normalise(t.trigger) === text) return t;
    if (t.match === 'contains' && text.includes(normalise(t.trigger))) return t;
    if (t.match !== 'regex') continue;
    if (spent >= budget) {
      opts.onBudgetSpent?.(templates.length - i);
      return null;
    }
    const t0 = now();
    const hit = compiledTrigger(t.trigger)?.test(read) ?? false;
    spent += now() - t0;
    if (hit) return t;
  }
  return null;
}

/** Fills `{{name}}` from variables; unknown placeholders stay visible so mistakes show. */
export function fillVariables(text: string, variables: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => variables[name] ?? whole);
}

import { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * What a new password must be (NIST SP 800-63B §5.1.1.2, issue 24): at least MIN_PASSWORD_LENGTH
 * characters, and not guessable from a blocklist: common passwords (zxcvbn-ts's list of the most
 * used ones, with keyboard patterns, repeats, sequences and dates) and words of this context (the
 * email address and its parts, the user's and organization's names, "parley"). No composition
 * rules (800-63B says not to), and no expiry. zxcvbn estimates the guesses an attacker who knows
 * these lists needs; a password under 10^8 guesses (its score 3) is refused with the reason.
 * Login never checks this: older passwords keep working until they are changed.
 */
export const MIN_PASSWORD_LENGTH = 10;
/** zxcvbn's score: 3 is "safely unguessable: moderate protection from offline slow-hash scenario" (≥ 10^8 guesses). */
const MIN_SCORE = 3;
/*
 * zxcvbn's work grows with the length and the l33t variants tried (its defaults, 256 characters
 * and 100 substitutions, took 250-990 ms of blocking CPU for a 43-character l33t phrase or a
 * 208-character one: a public route must not pay that). A password is judged on its first 64
 * characters (longer is strong unless those 64 are weak), with at most 8 l33t substitutions.
 */
const CHECKED_CHARS = 64;
const L33T_SUBSTITUTIONS = 8;

export interface PasswordContext {
  email: string;
  name?: string | null;
  organizationName?: string | null;
}

/*
 * The dictionaries are ~1 MB of word lists: loaded on the first check, once (about 0.6 s here),
 * so a server that never registers anyone never pays for them; a check then takes 1-15 ms.
 */
let factory: Promise<ZxcvbnFactory> | undefined;
function estimator(): Promise<ZxcvbnFactory> {
  factory ??= import('@zxcvbn-ts/language-common').then(
    (common) =>
      new ZxcvbnFactory({
        dictionary: { ...common.dictionary },
        graphs: common.adjacencyGraphs,
        maxLength: CHECKED_CHARS,
        l33tMaxSubstitutions: L33T_SUBSTITUTIONS,
      }),
  );
  return factory;
}

/** The context's words: the email, its local part and domain and their pieces, the names, the service. */
export function contextWords(c: PasswordContext): string[] {
  const email = c.email.trim().toLowerCase();
  const [local = '', domain = ''] = email.split('@');
  const pieces = [local, domain, ...local.split(/[^\p{L}\p{N}]+/u), ...domain.split('.')];
  const names = [c.name, c.organizationName].flatMap((n) => (n ? [n.toLowerCase(), ...n.toLowerCase().split(/\s+/)] : []));
  return [...new Set([email, ...pieces, ...names, 'parley'].filter((w) => w.length >= 3))];
}

const ADVICE = 'choose a longer phrase of unrelated words';

/** zxcvbn's warning keys (its feedback, untranslated) → why, in words. */
const REASONS: Record<string, string> = {
  topTen: 'is on a list of commonly used passwords',
  topHundred: 'is on a list of commonly used passwords',
  common: 'is on a list of commonly used passwords',
  similarToCommon: 'is a commonly used password with small changes',
  userInputs: 'contains your email address, your name, the organization\'s name or "parley"',
  simpleRepeat: 'repeats characters (like "aaaaaa")',
  extendedRepeat: 'repeats a pattern (like "abcabcabc")',
  sequences: 'is a sequence (like "abcdef" or "123456")',
  straightRow: 'is a row of keys on the keyboard',
  keyPattern: 'is a keyboard pattern',
  dates: 'is a date',
  recentYears: 'is a recent year',
  wordByItself: 'is a single common word',
  namesByThemselves: 'is a common name',
  pwned: 'is on a list of commonly used passwords',
};

/** Why a new password is refused, or null when it may be used. */
export async function passwordProblem(password: string, context: PasswordContext): Promise<string | null> {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (!password.trim()) return 'is only spaces';
  const words = contextWords(context);
  // The email (or a name) itself needs no estimate, and its digits made zxcvbn's date search take 70+ ms.
  if (words.includes(password.trim().toLowerCase())) return `${REASONS.userInputs}: ${ADVICE}`;
  const result = (await estimator()).check(password, words);
  if (result.score >= MIN_SCORE) return null;
  const reason = (result.feedback.warning && REASONS[result.feedback.warning]) ?? 'is too easy to guess';
  return `${reason}: ${ADVICE}`;
}

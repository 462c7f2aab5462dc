/**
 * What a factoid question asks for, and where a sentence holds it: a date ("When…", "What
 * year…"), a number ("How many…", "What percentage…"), a person ("Who…") or a place
 * ("Where…"). English rules over the surface text: fast enough for every answer (no model,
 * no tagger), and only used to prefer and highlight, never to invent.
 */
export type AnswerType = 'date' | 'number' | 'person' | 'place';

const DATE_Q_RE =
  /^\s*(?:when\b|(?:in|by|since|until|from)?\s*(?:what|which)\s+(?:year|date|day|month|decade|century|era|period|time)\b)|\b(?:what|which)\s+(?:year|date|decade|century)\b/i;
const NUMBER_Q_RE =
  /\bhow\s+(?:many|much|long|old|tall|high|far|big|large|fast|heavy|deep|wide|often)\b|\b(?:what|which)\s+(?:percentage|percent|proportion|share|number|amount|population|size|length|height|distance|speed|age|cost|price)\b/i;
const PERSON_Q_RE =
  /^\s*(?:who|whom|whose)\b|\b(?:what|which)\s+(?:person|man|woman|king|queen|president|emperor|artist|singer|composer|writer|author|director|actor|player|leader|ruler|scientist|engineer|architect)\b/i;
const PLACE_Q_RE =
  /^\s*where\b|\b(?:what|which)\s+(?:city|country|state|town|village|place|region|province|continent|island|river|lake|mountain|location|area|nation|county|street|district)\b|\bin\s+what\s+(?:city|country|place)\b/i;

/**
 * "How many / how much" and "when / which year" in other languages (issue 25): only numbers and
 * dates, whose spans are digits in any script (Arabic-Indic ٠١٢, Devanagari ०१२, full-width);
 * people and places need capitalisation rules that most scripts do not have.
 */
const OTHER_Q_RES: Readonly<Record<string, { number: RegExp; date: RegExp }>> = {
  de: { number: /\bwie\s*(?:viele?n?|lange|alt|hoch|groß|weit|oft)\b/i, date: /^\s*wann\b|\bin\s+welche[mn]?\s+(?:jahr|jahrhundert)/i },
  es: { number: /\bcu[aá]nt[oa]s?\b/i, date: /\bcu[aá]ndo\b|\bqu[eé]\s+(?:año|siglo)\b|\ben\s+qu[eé]\s+año/i },
  fr: { number: /\bcombien\b/i, date: /\bquand\b|\ben\s+quelle\s+année/i },
  pt: { number: /\bquant[oa]s?\b/i, date: /\bquando\b|\bem\s+que\s+ano/i },
  it: { number: /\bquant[oi]e?\b/i, date: /\bquando\b|\bin\s+che\s+anno/i },
  ru: { number: /сколько/i, date: /когда|в\s+как(?:ом|ой)\s+(?:году|веке)|какого\s+года/i },
  tr: { number: /\bkaç\b|ne\s+kadar/i, date: /ne\s+zaman|hangi\s+y[ıi]l/i },
  el: { number: /πόσ[οαεηι]/i, date: /πότε|ποιο\s+έτος|ποια\s+χρονιά/i },
  ro: { number: /\bc[âa]t(?:e|i|ă)?\b|câți/i, date: /\bc[âa]nd\b|\b[îi]n\s+ce\s+an/i },
  vi: { number: /bao\s+nhiêu|mấy/i, date: /khi\s+nào|năm\s+nào|bao\s+giờ/i },
  ar: { number: /كم/, date: /متى|أي\s+(?:عام|سنة)/ },
  hi: { number: /कितन/, date: /कब|किस\s+(?:वर्ष|साल)/ },
  zh: { number: /多少|几/, date: /哪一?年|什么时候|何时/ },
  ja: { number: /いくつ|何人|何個|どのくらい/, date: /いつ|何年/ },
  th: { number: /กี่|เท่าไร|เท่าไหร่/, date: /เมื่อไร|เมื่อไหร่|ปีใด|ปีไหน|ปีอะไร/ },
};
const OTHER_SPAN_RES: Record<'date' | 'number', RegExp> = {
  // A year: three or four digits of any script standing alone.
  date: /(?<!\p{Nd})\p{Nd}{3,4}(?!\p{Nd})/gu,
  // A number: digits of any script with their group and decimal separators, and a percent sign.
  number: /\p{Nd}(?:[\p{Nd},.\u066b\u066c\u00a0 ]*\p{Nd})?\s*[%٪]?/gu,
};

/** What a question asks for; `lang` (BCP 47, default English) picks the rules. */
export function answerTypeOf(question: string, lang?: string): AnswerType | null {
  const primary = lang?.toLowerCase().split(/[-_]/)[0];
  if (primary && primary !== 'en') {
    const res = OTHER_Q_RES[primary];
    if (!res) return null;
    return res.number.test(question) ? 'number' : res.date.test(question) ? 'date' : null;
  }
  if (NUMBER_Q_RE.test(question)) return 'number';
  if (DATE_Q_RE.test(question)) return 'date';
  if (PERSON_Q_RE.test(question)) return 'person';
  if (PLACE_Q_RE.test(question)) return 'place';
  return null;
}

const MONTH =
  '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\\.?';
const NUMBER_WORD =
  '(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|a hundred|a thousand|a million|dozens?|hundreds|thousands|millions)';
const SPAN_RES: Record<AnswerType, RegExp> = {
  date: new RegExp(
    `\\b(?:${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{3,4}|\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\s+\\d{3,4}|${MONTH}\\s+\\d{3,4}|(?:early|mid|late)[-\\s]\\d{3,4}s|\\d{3,4}s|\\d{1,2}(?:st|nd|rd|th)\\s+century|(?:1\\d|20)\\d{2}(?:\\s*(?:–|-|to)\\s*\\d{2,4})?|${MONTH}|\\d{3}\\s*(?:AD|BC|BCE|CE))\\b`,
    'g',
  ),
  number: new RegExp(
    `(?:[$£€¥]\\s?)?\\b(?:\\d[\\d,]*(?:\\.\\d+)?(?:\\s*(?:to|-|–|and)\\s*\\d[\\d,]*(?:\\.\\d+)?)?|${NUMBER_WORD}(?:[-\\s]${NUMBER_WORD})*)(?:\\s*(?:%|percent|per\\s+cent|million|billion|trillion|thousand|hundred))?(?:\\s+(?:[a-z]+\\s+)?(?:years?|months?|weeks?|days?|hours?|minutes?|seconds?|miles?|kilometres?|kilometers?|km|metres?|meters?|m|feet|ft|inches|pounds|kg|tons?|people|times|copies|units|requests|messages|users|employees|residents|inhabitants|visitors|albums?|songs?|records?|awards?|students?|members?|species))?\\b%?`,
    'gi',
  ),
  person:
    /\b(?:(?:Sir|Dr|Mr|Mrs|Ms|St|King|Queen|President|Emperor|Pope|Prince|Princess|Lord|Lady|General)\.?\s+)?[A-Z][\p{Ll}'’-]+(?:\s+(?:de|da|van|von|der|del|la|le|al|bin|ibn|of)?\s*[A-Z][\p{Ll}'’-]+){1,3}\b/gu,
  place: /\b(?:in|at|from|near|to|into|on|across|of)\s+((?:the\s+)?[A-Z][\p{L}'’-]+(?:\s+(?:of\s+)?[A-Z][\p{L}'’-]+){0,3})/gu,
};

export interface TypedSpan {
  start: number;
  end: number;
  text: string;
}

/**
 * The first span of `type` in `text` that the question does not already contain (asking "When
 * did Chopin leave Warsaw in 1830?" is not answered by "1830"). Person spans must not start
 * the sentence with a capitalised common word ("The…", "In…").
 */
export function findTypedSpan(text: string, type: AnswerType, question: string, lang?: string): TypedSpan | null {
  const primary = lang?.toLowerCase().split(/[-_]/)[0];
  if (primary && primary !== 'en') return type === 'date' || type === 'number' ? firstSpan(OTHER_SPAN_RES[type], text, question) : null;
  const re = SPAN_RES[type];
  re.lastIndex = 0;
  const q = question.toLowerCase();
  let year: TypedSpan | null = null;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // Place spans capture the name after the preposition.
    const value = (type === 'place' ? m[1] : m[0])?.trim();
    if (!value) continue;
    // "How many…" is rarely answered by a bare year ("In 2014, … for US$1.95 billion"): a year
    // is the number only when no other is there.
    if (type === 'number' && /^(?:1\d|20)\d\d$/.test(value)) {
      year ??= q.includes(value) ? null : { start: m.index, end: m.index + value.length, text: value };
      continue;
    }
    const start = type === 'place' ? m.index + m[0].lastIndexOf(value) : m.index + m[0].indexOf(value);
    if (q.includes(value.toLowerCase())) continue;
    if ((type === 'person' || type === 'place') && LEADING_COMMON_RE.test(value)) continue;
    return { start, end: start + value.length, text: value };
  }
  return year;
}

/** Capitalised words that begin sentences or titles, not names. */
const LEADING_COMMON_RE =
  /^(?:The|A|An|In|On|At|It|He|She|They|This|That|These|Those|His|Her|Their|After|Before|During|When|While|However|Although|Since|As|By|For|From|With|Many|Some|Most|Both|Each|All|According|Following|Between|Under|Over|Its)\b/;

/** The first match of `re` in `text` that the question does not already hold. */
function firstSpan(re: RegExp, text: string, question: string): TypedSpan | null {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const value = m[0].trim();
    if (value && !question.includes(value)) return { start: m.index, end: m.index + value.length, text: value };
  }
  return null;
}

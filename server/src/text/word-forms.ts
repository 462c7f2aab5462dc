import { porterStem } from './porter.js';

/**
 * Word forms that Porter stemming leaves apart although a question and its answer use them for
 * the same thing: irregular verbs ("When did she sell…" / "…sold 15 million"), irregular plurals,
 * and a few derivations that factoid questions and encyclopedic text trade ("When did he die?" /
 * "…his death in 1849"; "Who founded…" / "…its founder"). SQuAD-style questions paraphrase their
 * paragraph this way often enough to matter: on the tuning articles of the shared sample, 2.5 %
 * of the answerable questions use an irregular form that their paragraph spells otherwise.
 *
 * Answer-side matching only (sentence choice, coverage, confidence, the rerank): every word's
 * Porter stem is mapped to its family's stem. The full-text engines keep plain Porter, so FTS5,
 * tsvector and the memory index still agree by construction. BM25 itself is left alone: adding a
 * family's other forms to the query counts a family several times over and lowered recall@1 on
 * the tuning articles (0.792 → 0.784); the rerank of its candidates joins families instead.
 *
 * A closed, hand-checked English list. Forms that are also common unrelated words are left out:
 * found (find / to found), left, lie, lay (of lie), ground, wound, bound, rose, fell, bore, bit, saw.
 */
const FAMILIES: readonly string[] = [
  // Irregular verbs: base first, then past and participle forms that Porter does not join to it.
  'arise arose arisen',
  'awake awoke awoken',
  'beat beaten',
  'become became',
  'begin began begun',
  'bend bent',
  'bite bitten',
  'bleed bled',
  'blow blew blown',
  'break broke broken',
  'breed bred',
  'bring brought',
  'build built',
  'buy bought',
  'catch caught',
  'choose chose chosen',
  'cling clung',
  'come came',
  'creep crept',
  'deal dealt',
  'dig dug',
  'draw drew drawn',
  'drink drank drunk',
  'drive drove driven',
  'eat ate eaten',
  'fall fallen',
  'feed fed',
  'feel felt',
  'fight fought',
  'flee fled',
  'fly flew flown',
  'forbid forbade forbidden',
  'forget forgot forgotten',
  'forgive forgave forgiven',
  'freeze froze frozen',
  'give gave given',
  'go went gone',
  'grow grew grown growth',
  'hang hung',
  'hear heard',
  'hide hid hidden',
  'hold held',
  'keep kept',
  'kneel knelt',
  'know knew known',
  'lay laid',
  'lend lent',
  'lose lost',
  'make made',
  'mean meant',
  'meet met',
  'pay paid',
  'ride rode ridden',
  'ring rang rung',
  'rise risen',
  'run ran',
  'say said',
  'see seen',
  'seek sought',
  'sell sold sale sales',
  'send sent',
  'shake shook shaken',
  'shine shone',
  'shoot shot',
  'shrink shrank shrunk',
  'sing sang sung',
  'sink sank sunk',
  'sit sat',
  'sleep slept',
  'slide slid',
  'speak spoke spoken',
  'spend spent',
  'spin spun',
  'spring sprang sprung',
  'stand stood',
  'steal stole stolen',
  'stick stuck',
  'strike struck stricken',
  'strive strove striven',
  'swear swore sworn',
  'sweep swept',
  'swim swam swum',
  'swing swung',
  'take took taken',
  'teach taught',
  'tear tore torn',
  'tell told',
  'think thought',
  'throw threw thrown',
  'understand understood',
  'undergo underwent undergone',
  'undertake undertook undertaken',
  'wake woke woken',
  'wear wore worn',
  'weave wove woven',
  'weep wept',
  'win won winner winners',
  'withdraw withdrew withdrawn',
  'withstand withstood',
  'write wrote written writer writers',
  'overcome overcame',
  'overtake overtook overtaken',
  'oversee oversaw overseen',
  'overthrow overthrew overthrown',
  'foresee foresaw foreseen',
  'mislead misled',
  'uphold upheld',
  'rebuild rebuilt',
  'rewrite rewrote rewritten',
  'lead led leader leaders',
  // Irregular plurals.
  'child children',
  'man men',
  'woman women',
  'person people',
  'foot feet',
  'tooth teeth',
  'mouse mice',
  // Derivations that questions and encyclopedic text trade for one another.
  'die died dies dying death deaths dead',
  'born birth births',
  'marry married marries marriage marriages',
  'founded founder founders founding',
  'invent inventor inventors invention',
  'discover discoverer discovery',
  'compose composer composers composition',
  'direct director directors',
  'produce producer producers production',
];

/** Porter stem of a family member → the family's stem (its first word's). */
const FAMILY_OF = new Map<string, string>();
for (const line of FAMILIES) {
  const stems = [...new Set(line.split(' ').map((w) => porterStem(w)))];
  const head = stems[0] as string;
  for (const s of stems) {
    if (FAMILY_OF.has(s) && FAMILY_OF.get(s) !== head) throw new Error(`word-forms: "${s}" is in two families`);
    FAMILY_OF.set(s, head);
  }
}

/** The stem answer-side matching uses for a Porter stem: its family's, or itself. */
export function familyStem(stem: string): string {
  return FAMILY_OF.get(stem) ?? stem;
}

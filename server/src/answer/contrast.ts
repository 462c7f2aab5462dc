/**
 * Opposites: a question that says "before" about a sentence that says "after", "ancient" about
 * one that says "modern", "out of" about "into". SQuAD 2.0's adversarial unanswerable questions
 * are built this way (an antonym or a reversed relation in a paragraph's own wording: about a
 * fifth of them, Rajpurkar et al. 2018), and word overlap cannot see it: most such words are
 * stopwords or share the rest of the sentence. English only, a closed list of pairs of words as
 * written (not stemmed: "later" and "late" are different claims).
 *
 * On the tuning articles of the shared SQuAD sample, a chosen sentence that holds the opposite
 * of a question word, and not the word itself, came with 31 of 368 unanswerable questions and 9
 * of 2,593 answerable ones.
 */
import { tokenize } from '../text/tokens.js';

const PAIRS = [
  'before after',
  'before since',
  'before onward',
  'before onwards',
  'after until',
  'after prior',
  'first last',
  'first final',
  'initial final',
  'initially finally',
  'earliest latest',
  'early late',
  'earlier later',
  'ancient modern',
  'old new',
  'older newer',
  'oldest newest',
  'young old',
  'younger older',
  'youngest oldest',
  'previous next',
  'former current',
  'past future',
  'upper lower',
  'north south',
  'northern southern',
  'east west',
  'eastern western',
  'upstream downstream',
  'into out',
  'inside outside',
  'inner outer',
  'internal external',
  'above below',
  'over under',
  'top bottom',
  'front back',
  'left right',
  'increase decrease',
  'increased decreased',
  'increases decreases',
  'increase reduce',
  'increased reduced',
  'rise fall',
  'rose fell',
  'raise lower',
  'raised lowered',
  'gain loss',
  'gained lost',
  'profit loss',
  'more less',
  'more fewer',
  'most least',
  'largest smallest',
  'biggest smallest',
  'highest lowest',
  'longest shortest',
  'high low',
  'higher lower',
  'large small',
  'big small',
  'heavy light',
  'fastest slowest',
  'best worst',
  'better worse',
  'major minor',
  'maximum minimum',
  'minority majority',
  'positive negative',
  'true false',
  'begin end',
  'began ended',
  'beginning end',
  'start end',
  'started ended',
  'open closed',
  'opened closed',
  'win lose',
  'won lost',
  'victory defeat',
  'attack defend',
  'attacked defended',
  'accept reject',
  'accepted rejected',
  'allowed banned',
  'support oppose',
  'supported opposed',
  'agree disagree',
  'agreed disagreed',
  'include exclude',
  'included excluded',
  'join leave',
  'joined left',
  'arrive depart',
  'arrived departed',
  'add remove',
  'added removed',
  'create destroy',
  'created destroyed',
  'build destroy',
  'built destroyed',
  'import export',
  'imports exports',
  'buy sell',
  'bought sold',
  'input output',
  'birth death',
  'born died',
  'living dead',
  'live die',
  'lived died',
  'love hate',
  'friend enemy',
  'friends enemies',
  'ally enemy',
  'allies enemies',
  'always never',
  'all none',
  'with without',
  'success failure',
  'successful unsuccessful',
  'legal illegal',
  'official unofficial',
  'public private',
  'domestic foreign',
  'domestic international',
  'national international',
  'direct indirect',
  'directly indirectly',
  'full partial',
  'fully partially',
  'permanent temporary',
  'common rare',
  'frequent rare',
  'male female',
  'men women',
  'man woman',
  'rich poor',
  'strong weak',
  'wet dry',
  'hot cold',
  'warm cold',
  'winter summer',
  'day night',
];

const OPPOSITES: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  const add = (a: string, b: string): void => {
    map.set(a, [...(map.get(a) ?? []), b]);
  };
  for (const pair of PAIRS) {
    const [a, b] = pair.split(' ') as [string, string];
    add(a, b);
    add(b, a);
  }
  return map;
})();

/**
 * How many words of `question` the `sentence` lacks while holding one of their opposites (that
 * the question does not also say): "What was a major source of pollution after the 1980s?"
 * against "Until the early 1980s, industry was a major source of pollution." is 1.
 */
export function oppositeSwaps(question: string, sentence: string): number {
  const asked = new Set(tokenize(question));
  const said = new Set(tokenize(sentence));
  let swaps = 0;
  for (const word of asked) {
    if (said.has(word)) continue;
    if (OPPOSITES.get(word)?.some((o) => said.has(o) && !asked.has(o))) swaps++;
  }
  return swaps;
}

/**
 * A deterministic synthetic knowledge corpus: help-center style markdown documents whose words
 * follow a Zipf distribution over a vocabulary, so that BM25 sees realistic term frequencies.
 */
import { seededRandom } from '../../server/src/lib/seeded-random.js';

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  're',
  'sa',
  'tu',
  'ne',
  'vo',
  'di',
  'pa',
  'gor',
  'lin',
  'tes',
  'mar',
  'qui',
  'zen',
  'bal',
  'cor',
  'fen',
  'hul',
];
/**
 * In English the most frequent words of the Zipf curve are function words: the top ranks are
 * real stopwords, and made-up content words follow them, as in real text.
 */
const FUNCTION_WORDS = (
  'the of and to a in is you that it for on are with as be this your can or by not from at have an will ' +
  'if all do when which there their one more so about what use then them into out up only other any each how some these may ' +
  'its no than also after before should must our we they has been was would could most where such here very just over'
).split(' ');

export interface CorpusOptions {
  documents: number;
  sectionsPerDocument: number;
  sentencesPerSection: number;
  vocabulary: number;
  seed?: number;
}

export function createCorpus(opts: CorpusOptions) {
  const rand = seededRandom(opts.seed ?? 42);
  const vocab: string[] = [...FUNCTION_WORDS];
  for (let i = 0; i < opts.vocabulary; i++) {
    let w = '';
    let n = i + 1;
    do {
      w += SYLLABLES[n % SYLLABLES.length];
      n = Math.floor(n / SYLLABLES.length);
    } while (n > 0);
    vocab.push(w);
  }
  // Zipf(s = 1.07) via a cumulative table and binary search.
  const weights = vocab.map((_, i) => 1 / (i + 1) ** 1.07);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  weights.reduce((acc, w, i) => (cumulative[i] = acc + w / total), 0);
  const zipfIndex = (from: number): number => {
    const base = from ? (cumulative[from - 1] as number) : 0;
    const r = base + rand() * (1 - base);
    let lo = from;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const word = (): string => vocab[zipfIndex(0)] as string;
  const contentWord = (): string => vocab[zipfIndex(FUNCTION_WORDS.length)] as string;
  const sentence = (): string => {
    const n = 8 + Math.floor(rand() * 14);
    const words = Array.from({ length: n }, word);
    const first = words[0] as string;
    words[0] = first.charAt(0).toUpperCase() + first.slice(1);
    return `${words.join(' ')}.`;
  };
  const title = (): string => Array.from({ length: 3 }, contentWord).join(' ');

  function* documents(): Generator<{ title: string; content: string; url: string }> {
    for (let d = 0; d < opts.documents; d++) {
      const t = title();
      const parts = [`# ${t}`];
      for (let s = 0; s < opts.sectionsPerDocument; s++) {
        parts.push(`## ${title()}`, Array.from({ length: opts.sentencesPerSection }, sentence).join(' '));
      }
      yield { title: t, content: parts.join('\n\n'), url: `https://docs.example.com/${d}` };
    }
  }

  /** Questions built from words that exist in the corpus, like users' real queries. */
  const questions = (n: number): string[] =>
    Array.from({ length: n }, () => `How do I ${contentWord()} the ${contentWord()} ${contentWord()}?`);

  return { documents, questions };
}

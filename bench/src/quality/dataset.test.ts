import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDataset, DEFAULT_DATASET, PARAGRAPH_WORDS, serialize } from './build-dataset.js';
import { parseSource } from './dataset-source.js';
import { runQualityBench, splitArticles } from './harness.js';
import { datasetCounts, flatten, loadSquad, validateSquad, type SquadDataset } from './squad.js';

describe('bench/data/quality/parley-qa.json', () => {
  const dataset = loadSquad(DEFAULT_DATASET);

  it('is valid SQuAD v2: structure, unique ids, every answer exactly at answer_start, 60-200 word paragraphs', () => {
    expect(validateSquad(dataset, PARAGRAPH_WORDS)).toEqual([]);
    for (const article of dataset.data) {
      for (const p of article.paragraphs) {
        for (const q of p.qas) {
          for (const a of q.answers) expect(p.context.slice(a.answer_start, a.answer_start + a.text.length)).toBe(a.text);
          expect(q.is_impossible).toBe(q.answers.length === 0);
        }
      }
    }
  });

  it('is what the source files build, and every unanswerable question passes the absence check', () => {
    const { dataset: built, errors } = buildDataset();
    expect(errors).toEqual([]);
    expect(fs.readFileSync(DEFAULT_DATASET, 'utf8')).toBe(serialize(built));
  });

  it('has the size it promises', () => {
    const counts = datasetCounts(dataset);
    expect(counts.articles).toBeGreaterThanOrEqual(25);
    expect(counts.paragraphs).toBeGreaterThanOrEqual(120);
    expect(counts.answerable).toBeGreaterThanOrEqual(300);
    expect(counts.unanswerable).toBeGreaterThanOrEqual(100);
    expect(new Set(flatten(dataset).paragraphs.map((p) => p.context)).size).toBe(counts.paragraphs);
  });
});

describe('the validator and the source parser', () => {
  const good = (): SquadDataset => ({
    version: 't',
    data: [
      {
        title: 'T',
        paragraphs: [
          {
            context: 'The cat sat on the mat.',
            qas: [{ id: 'a', question: 'Where?', answers: [{ text: 'the mat', answer_start: 15 }], is_impossible: false }],
          },
        ],
      },
    ],
  });

  it('accepts a valid file and names each problem of a broken one', () => {
    expect(validateSquad(good())).toEqual([]);
    const shifted = good();
    (shifted.data[0]!.paragraphs[0]!.qas[0]!.answers[0] as { answer_start: number }).answer_start = 14;
    expect(validateSquad(shifted)).toEqual([expect.stringContaining('"the mat" is not at 14')]);
    const dup = good();
    dup.data[0]!.paragraphs[0]!.qas.push({ id: 'a', question: 'Again?', answers: [], is_impossible: true });
    expect(validateSquad(dup)).toEqual([expect.stringContaining('duplicate id')]);
    const impossible = good();
    impossible.data[0]!.paragraphs[0]!.qas[0]!.is_impossible = true;
    expect(validateSquad(impossible)).toEqual([expect.stringContaining('impossible question with answers')]);
    expect(validateSquad({ version: 1, data: {} })).toEqual(['version must be a string', 'data must be an array']);
    expect(validateSquad(good(), { minWords: 10 })).toEqual([expect.stringContaining('6 words < 10')]);
  });

  it('computes offsets from the source and refuses answers that are not in the paragraph', () => {
    const text = [
      '# Cats',
      'The cat sat on the mat.',
      'It purred.',
      '? Where did the cat sit? => the mat',
      '? What did it do? => purred || It purred',
      '? Who? => the dog',
      '! What colour is the cat? ## none: colour; black & cat',
      '',
      'Dogs bark at the black cat.',
      '! How old is the dog? ## none: years old',
    ].join('\n');
    const { dataset, problems } = parseSource([{ name: 'x.txt', text }]);
    const [p1, p2] = dataset.data[0]!.paragraphs;
    expect(p1!.context).toBe('The cat sat on the mat. It purred.');
    expect(p1!.qas[0]!.answers).toEqual([{ text: 'the mat', answer_start: 15 }]);
    expect(p1!.qas[1]!.answers.map((a) => a.answer_start)).toEqual([27, 24]);
    expect(p1!.qas[3]).toMatchObject({ is_impossible: true, answers: [] });
    expect(p2!.qas[0]!.id).toBe('cats-p2-q1');
    // "the dog" is not in paragraph 1; "black" and "cat" occur together in paragraph 2.
    expect(problems).toEqual([
      { file: 'x.txt', line: 6, message: 'answer not in paragraph: "the dog"' },
      { file: 'x.txt', line: 7, message: expect.stringMatching(/^"black & cat" all occur in paragraph 1/) },
    ]);
  });
});

describe('the harness on a tiny SQuAD file', () => {
  it('loads paragraphs as documents, asks every question through the chat service and scores it', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-quality-test-')), 'tiny.json');
    const q = (id: string, question: string, answer?: [string, string]) => ({
      id,
      question,
      is_impossible: !answer,
      answers: answer ? [{ text: answer[1], answer_start: answer[0].indexOf(answer[1]) }] : [],
    });
    const volcano = 'Mount Zorvath is a volcano in the Eldrin Range. It last erupted in 1843, sending ash across three valleys.';
    const lake = 'Lake Quillan is a glacial lake fed by the Pell River. It freezes solid every winter and holds brown trout.';
    const tower = 'The Brasswick clock tower was built in 1902 by the engineer Oda Fenn. Its bell weighs four tons.';
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 't',
        data: [
          {
            title: 'Mount Zorvath',
            paragraphs: [
              {
                context: volcano,
                qas: [q('v1', 'When did Mount Zorvath last erupt?', [volcano, '1843']), q('v2', 'How tall is Mount Zorvath?')],
              },
            ],
          },
          {
            title: 'Lake Quillan',
            paragraphs: [
              {
                context: lake,
                qas: [
                  q('l1', 'Which river feeds Lake Quillan?', [lake, 'the Pell River']),
                  q('l2', 'What fish live in the lake?', [lake, 'brown trout']),
                ],
              },
            ],
          },
          {
            title: 'Brasswick',
            paragraphs: [
              {
                context: tower,
                qas: [
                  q('t1', 'Who built the Brasswick clock tower?', [tower, 'Oda Fenn']),
                  q('t2', 'How many visitors climb the Brasswick tower each year?'),
                ],
              },
            ],
          },
        ],
      }),
    );
    const r = await runQualityBench({ file, repeats: 1, engines: false, examples: 5 });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(r.dataset).toMatchObject({ articles: 3, paragraphs: 3, chunks: 3, answerable: 4, unanswerable: 2 });
    // The split is by article, fixed by the titles' hashes: every question of an article on one side.
    expect([...r.dataset.halves.tuning, ...r.dataset.halves.heldOut].sort()).toEqual(['Brasswick', 'Lake Quillan', 'Mount Zorvath']);
    expect(r.tuning.questions + r.heldOut.questions).toBe(6);
    expect(r.all.retrieval.parley.recallAt5).toBe(1);
    expect(r.all.retrieval.parley.recallAt1).toBeGreaterThanOrEqual(0.75);
    expect(r.all.retrieval.plainFts.recallAt5).toBe(1);
    expect(r.all.answers.goldSpanAtZero).toBeGreaterThanOrEqual(0.5);
    // Handed its own paragraph, the answer step finds the volcano's year, the river and the builder.
    expect(r.all.answers.goldSpanGivenGoldParagraph).toBeGreaterThanOrEqual(0.75);
    expect(r.all.answers.meanChars).toBeGreaterThan(0);
    expect(r.all.confidence.aurocAnswerableVsUnanswerable).toBeGreaterThan(0.5);
    expect(r.threshold.sweep.tuning).toHaveLength(19);
    expect(r.engines.map((e) => e.name)).toEqual(['Parley']);
    expect(r.engines[0]!.vsParley.recallAt5).toBe(1);
  });
});

describe('the article split', () => {
  it('is fixed by the titles alone, alternates along the hash order and keeps the halves within one article of each other', () => {
    const titles = Array.from({ length: 11 }, (_, i) => `Article ${i}`);
    const halves = splitArticles(titles);
    expect(splitArticles(titles)).toEqual(halves);
    const tuning = halves.filter((h) => h === 'tuning').length;
    expect(tuning).toBe(6);
    // Reordering the file does not move an article to the other side.
    const reversed = splitArticles([...titles].reverse());
    expect([...reversed].reverse()).toEqual(halves);
  });
});

/**
 * SQuAD v2 files: types, loading and validation. The harness reads any file in this format
 * (the official SQuAD 2.0 dev set works as well as bench/data/quality/parley-qa.json).
 */
import fs from 'node:fs';

export interface SquadAnswer {
  text: string;
  answer_start: number;
}
export interface SquadQuestion {
  id: string;
  question: string;
  answers: SquadAnswer[];
  is_impossible?: boolean;
  plausible_answers?: SquadAnswer[];
}
export interface SquadParagraph {
  context: string;
  qas: SquadQuestion[];
}
export interface SquadArticle {
  title: string;
  paragraphs: SquadParagraph[];
}
export interface SquadDataset {
  version: string;
  data: SquadArticle[];
}

/** One question with its gold paragraph (global index over all paragraphs, in file order). */
export interface FlatQuestion {
  id: string;
  question: string;
  answerable: boolean;
  /** Gold answer texts (empty for unanswerable questions). */
  answers: string[];
  paragraph: number;
  article: number;
}
export interface FlatParagraph {
  index: number;
  article: number;
  title: string;
  context: string;
}

export function loadSquad(file: string): SquadDataset {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as SquadDataset;
}

/** Paragraphs and questions in file order; unanswerable = `is_impossible` or no answers. */
export function flatten(dataset: SquadDataset): { paragraphs: FlatParagraph[]; questions: FlatQuestion[] } {
  const paragraphs: FlatParagraph[] = [];
  const questions: FlatQuestion[] = [];
  dataset.data.forEach((article, a) => {
    for (const p of article.paragraphs) {
      const index = paragraphs.length;
      paragraphs.push({ index, article: a, title: article.title, context: p.context });
      for (const q of p.qas) {
        const answerable = !q.is_impossible && q.answers.length > 0;
        questions.push({
          id: q.id,
          question: q.question,
          answerable,
          answers: answerable ? [...new Set(q.answers.map((x) => x.text))] : [],
          paragraph: index,
          article: a,
        });
      }
    }
  });
  return { paragraphs, questions };
}

export interface ValidationOptions {
  /** Paragraph length bounds in words (our own dataset: 60..200); unchecked when absent. */
  minWords?: number;
  maxWords?: number;
}

/**
 * Format problems of a SQuAD v2 dataset, empty when it is valid: structure and types, unique
 * question ids, every answer span exactly at `answer_start` in its context, impossible
 * questions without answers.
 */
export function validateSquad(dataset: unknown, opts: ValidationOptions = {}): string[] {
  const errors: string[] = [];
  const d = dataset as Partial<SquadDataset> | null;
  if (!d || typeof d !== 'object') return ['not an object'];
  if (typeof d.version !== 'string') errors.push('version must be a string');
  if (!Array.isArray(d.data)) return [...errors, 'data must be an array'];
  const ids = new Set<string>();
  d.data.forEach((article, a) => {
    const where = `data[${a}]`;
    if (typeof article?.title !== 'string' || !article.title) errors.push(`${where}.title must be a non-empty string`);
    if (!Array.isArray(article?.paragraphs)) {
      errors.push(`${where}.paragraphs must be an array`);
      return;
    }
    article.paragraphs.forEach((p, i) => {
      const pw = `${where}.paragraphs[${i}]`;
      if (typeof p?.context !== 'string' || !p.context) {
        errors.push(`${pw}.context must be a non-empty string`);
        return;
      }
      const words = p.context.split(/\s+/).filter(Boolean).length;
      if (opts.minWords !== undefined && words < opts.minWords) errors.push(`${pw}: ${words} words < ${opts.minWords}`);
      if (opts.maxWords !== undefined && words > opts.maxWords) errors.push(`${pw}: ${words} words > ${opts.maxWords}`);
      if (!Array.isArray(p.qas)) {
        errors.push(`${pw}.qas must be an array`);
        return;
      }
      p.qas.forEach((q, j) => {
        const qw = `${pw}.qas[${j}] (${q?.id})`;
        if (typeof q?.id !== 'string' || !q.id) errors.push(`${qw}: id must be a non-empty string`);
        else if (ids.has(q.id)) errors.push(`${qw}: duplicate id`);
        else ids.add(q.id);
        if (typeof q?.question !== 'string' || !q.question.trim()) errors.push(`${qw}: question must be a non-empty string`);
        if (!Array.isArray(q?.answers)) {
          errors.push(`${qw}: answers must be an array`);
          return;
        }
        if (q.is_impossible !== undefined && typeof q.is_impossible !== 'boolean') errors.push(`${qw}: is_impossible must be a boolean`);
        if (q.is_impossible && q.answers.length) errors.push(`${qw}: impossible question with answers`);
        if (!q.is_impossible && !q.answers.length) errors.push(`${qw}: answerable question without answers`);
        for (const ans of [...q.answers, ...(q.plausible_answers ?? [])]) {
          if (typeof ans?.text !== 'string' || !ans.text || !Number.isInteger(ans.answer_start)) {
            errors.push(`${qw}: answer needs text and an integer answer_start`);
            continue;
          }
          if (p.context.slice(ans.answer_start, ans.answer_start + ans.text.length) !== ans.text) {
            errors.push(`${qw}: "${ans.text}" is not at ${ans.answer_start}`);
          }
        }
      });
    });
  });
  return errors;
}

export function datasetCounts(dataset: SquadDataset) {
  const { paragraphs, questions } = flatten(dataset);
  const words = paragraphs.map((p) => p.context.split(/\s+/).filter(Boolean).length);
  return {
    articles: dataset.data.length,
    paragraphs: paragraphs.length,
    answerable: questions.filter((q) => q.answerable).length,
    unanswerable: questions.filter((q) => !q.answerable).length,
    paragraphWords: {
      min: Math.min(...words),
      max: Math.max(...words),
      mean: Math.round(words.reduce((a, b) => a + b, 0) / (words.length || 1)),
    },
  };
}

/**
 * The source of bench/data/quality/parley-qa.json: plain-text files under
 * bench/data/quality/source/, parsed into SQuAD v2 with every `answer_start` computed, never
 * typed by hand. Format (one file per group of articles):
 *
 *     # Article title
 *     paragraph text (may wrap over lines; a blank line ends it)
 *     ? question => answer span || another accepted span
 *     ! unanswerable question ## none: term & term; term
 *
 * An answer span must occur verbatim in its paragraph (its first occurrence is used). An
 * unanswerable question lists term groups the answer would need: no paragraph of the whole
 * dataset may contain every term of any group (terms match case-insensitively at a word start,
 * so `excavat` covers excavated/excavation). That is the machine check behind "the answer is in
 * no paragraph"; the questions were also read against every paragraph by hand.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SquadDataset, SquadQuestion } from './squad.js';

export interface SourceProblem {
  file: string;
  line: number;
  message: string;
}

interface Draft {
  title: string;
  paragraphs: { context: string; qas: (SquadQuestion & { none?: string[][]; line: number; file: string })[] }[];
}

const slug = (s: string): string =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 24);

/** A term group matcher: every term present (word-start, case-insensitive, spaces flexible). */
function termRegex(term: string): RegExp {
  const escaped = term
    .trim()
    .toLowerCase()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\s+/g, '\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}`, 'u');
}

export function parseSource(files: { name: string; text: string }[]): { dataset: SquadDataset; problems: SourceProblem[] } {
  const problems: SourceProblem[] = [];
  const articles: Draft[] = [];
  for (const { name, text } of files) {
    let article: Draft | null = null;
    let buffer: string[] = [];
    const flush = (): void => {
      if (!buffer.length) return;
      if (!article) problems.push({ file: name, line: 0, message: 'paragraph before any "# title"' });
      else article.paragraphs.push({ context: buffer.join(' ').replace(/\s+/g, ' ').trim(), qas: [] });
      buffer = [];
    };
    text.split('\n').forEach((raw, i) => {
      const line = raw.trimEnd();
      const at = { file: name, line: i + 1 };
      if (line.startsWith('# ')) {
        flush();
        article = { title: line.slice(2).trim(), paragraphs: [] };
        articles.push(article);
      } else if (line.startsWith('? ') || line.startsWith('! ')) {
        flush();
        const para = article?.paragraphs.at(-1);
        if (!article || !para) {
          problems.push({ ...at, message: 'question before any paragraph' });
          return;
        }
        const id = `${slug(article.title)}-p${article.paragraphs.length}-q${para.qas.length + 1}`;
        if (line.startsWith('? ')) {
          const [question = '', answerPart] = line.slice(2).split(' => ');
          if (!answerPart) {
            problems.push({ ...at, message: 'answerable question without " => answer"' });
            return;
          }
          const answers = answerPart
            .split(' || ')
            .map((t) => t.trim())
            .filter(Boolean)
            .map((t) => ({ text: t, answer_start: para.context.indexOf(t) }));
          for (const a of answers) if (a.answer_start < 0) problems.push({ ...at, message: `answer not in paragraph: "${a.text}"` });
          para.qas.push({ id, question: question.trim(), answers, is_impossible: false, line: i + 1, file: name });
        } else {
          const [question = '', notes = ''] = line.slice(2).split(' ## ');
          const m = /^none:\s*(.+)$/.exec(notes.trim());
          if (!m?.[1]) {
            problems.push({ ...at, message: 'unanswerable question without "## none: terms"' });
            return;
          }
          const none = m[1]
            .split(';')
            .map((g) =>
              g
                .split('&')
                .map((t) => t.trim())
                .filter(Boolean),
            )
            .filter((g) => g.length);
          para.qas.push({ id, question: question.trim(), answers: [], is_impossible: true, none, line: i + 1, file: name });
        }
      } else if (line.trim() === '') {
        flush();
      } else {
        buffer.push(line.trim());
      }
    });
    flush();
  }

  // The absence check runs over every paragraph of every file.
  const contexts = articles.flatMap((a) => a.paragraphs.map((p) => p.context.toLowerCase()));
  for (const a of articles) {
    for (const p of a.paragraphs) {
      for (const q of p.qas) {
        for (const group of q.none ?? []) {
          const res = group.map(termRegex);
          const hit = contexts.findIndex((c) => res.every((re) => re.test(c)));
          if (hit >= 0)
            problems.push({
              file: q.file,
              line: q.line,
              message: `"${group.join(' & ')}" all occur in paragraph ${hit}: "${contexts[hit]?.slice(0, 60)}…"`,
            });
        }
      }
    }
  }

  const dataset: SquadDataset = {
    version: 'parley-qa-1.0',
    data: articles.map((a) => ({
      title: a.title,
      paragraphs: a.paragraphs.map((p) => ({
        context: p.context,
        qas: p.qas.map(({ id, question, answers, is_impossible }) => ({ id, question, answers, is_impossible })),
      })),
    })),
  };
  return { dataset, problems };
}

export function readSourceDir(dir: string): { name: string; text: string }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => ({ name: f, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

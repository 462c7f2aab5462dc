/**
 * The runner behind `npm run bench`: checks every section's prerequisites before spending
 * minutes on any section, runs the sections in order, prints each one's table rows as soon as it
 * finishes, and saves what it has after every section, so a section that fails (or a run cut
 * short) still leaves every figure measured before it. A failed section is recorded with its
 * error and the run goes on; the exit code says whether any failed. A section whose
 * prerequisite is missing is skipped with a line saying how to get it (not a failure: the
 * machine lacks a part, the code did not break).
 */
import fs from 'node:fs';
import path from 'node:path';

/** One line of the markdown table: measure, value, detail. */
export type Row = [string, string, string];

/** Something a section needs from the machine (nginx, PostgreSQL, Redis). */
export interface Prerequisite {
  name: string;
  /** null when it is there; else what is missing and how to install or start it. */
  check(): Promise<string | null>;
}

export interface SectionOutput {
  /** Merged into the JSON under these keys (most sections use one: their name). */
  results: Record<string, unknown>;
  rows: Row[];
}

export interface Section {
  name: string;
  /** What it measures, printed as it starts (with a rough duration: the bench is long). */
  title: string;
  needs?: readonly Prerequisite[];
  run(): Promise<SectionOutput>;
}

export interface SectionStatus {
  name: string;
  status: 'ok' | 'failed' | 'skipped';
  seconds: number;
  /** failed: the error's message; skipped: what is missing. */
  reason?: string;
}

export interface RunnerIo {
  /** Progress and figures, as they come. */
  print(text: string): void;
  /** Writes the results so far (JSON) and the table so far (markdown). Called after every section. */
  save(results: Record<string, unknown>, table: string): void;
  now?(): number;
}

export interface BenchReport {
  results: Record<string, unknown>;
  rows: Row[];
  sections: SectionStatus[];
  /** 1 when a section failed, else 0. */
  exitCode: number;
}

export function markdownTable(rows: readonly Row[]): string {
  return ['| measure | value | detail |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** On one line: it goes into a table cell. */
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();

/** Every distinct prerequisite checked once, all at the same time: name → null or what is missing. */
async function checkAll(sections: readonly Section[]): Promise<Map<string, string | null>> {
  const distinct = new Map<string, Prerequisite>();
  for (const s of sections) for (const p of s.needs ?? []) distinct.set(p.name, p);
  const checked = await Promise.all(
    [...distinct.values()].map(async (p) => {
      try {
        return [p.name, await p.check()] as const;
      } catch (err) {
        return [p.name, `${p.name}: the check itself failed: ${messageOf(err)}`] as const;
      }
    }),
  );
  return new Map(checked);
}

/** Runs `sections` in order; `base` starts the JSON (machine, date). */
export async function runBench(sections: readonly Section[], base: Record<string, unknown>, io: RunnerIo): Promise<BenchReport> {
  const now = io.now ?? (() => performance.now());
  const results: Record<string, unknown> = { ...base };
  const rows: Row[] = [];
  const statuses: SectionStatus[] = [];
  const save = () => io.save({ ...results, sections: statuses }, markdownTable(rows));

  const missing = await checkAll(sections);
  const skipWhy = (s: Section): string | null => {
    const gaps = (s.needs ?? []).map((p) => missing.get(p.name)).filter((m): m is string => typeof m === 'string');
    return gaps.length ? gaps.join('; ') : null;
  };
  const lines = [...missing].map(([name, gap]) => (gap === null ? `  ok       ${name}` : `  missing  ${gap}`));
  const skipped = sections.filter((s) => skipWhy(s) !== null).map((s) => s.name);
  io.print(
    [
      `Sections: ${sections.map((s) => s.name).join(', ')}`,
      ...(lines.length ? ['Prerequisites:', ...lines] : []),
      ...(skipped.length ? [`Skipping for a missing prerequisite: ${skipped.join(', ')} (the rest runs)`] : []),
      '',
    ].join('\n'),
  );

  for (const [i, section] of sections.entries()) {
    const why = skipWhy(section);
    if (why !== null) {
      statuses.push({ name: section.name, status: 'skipped', seconds: 0, reason: why });
      results[section.name] = { skipped: why };
      rows.push([`${section.name} (skipped)`, 'skipped', why]);
      io.print(`[${i + 1}/${sections.length}] ${section.name}: skipped (${why})\n`);
      save();
      continue;
    }
    io.print(`[${i + 1}/${sections.length}] ${section.name}: ${section.title} …\n`);
    const t0 = now();
    try {
      const out = await section.run();
      const seconds = Math.round((now() - t0) / 100) / 10;
      Object.assign(results, out.results);
      rows.push(...out.rows);
      statuses.push({ name: section.name, status: 'ok', seconds });
      io.print(`${markdownTable(out.rows)}\n(${section.name}: ${seconds} s)\n\n`);
    } catch (err) {
      const seconds = Math.round((now() - t0) / 100) / 10;
      const reason = messageOf(err);
      statuses.push({ name: section.name, status: 'failed', seconds, reason });
      results[section.name] = { error: reason };
      rows.push([`${section.name} (failed)`, 'failed', reason]);
      const stack = err instanceof Error && err.stack ? `${err.stack}\n` : '';
      io.print(`${section.name} FAILED after ${seconds} s: ${reason}\n${stack}\n`);
    }
    save();
  }

  const failed = statuses.filter((s) => s.status === 'failed');
  const summary = statuses.map((s) => `${s.name} ${s.status === 'ok' ? `ok (${s.seconds} s)` : s.status}`).join(', ');
  const json = JSON.stringify({ ...results, sections: statuses }, null, 2);
  io.print(`\n${markdownTable(rows)}\n\n${json}\n\n${summary}\n`);
  if (failed.length) {
    io.print(`${failed.length} section(s) failed: ${failed.map((s) => `${s.name} (${s.reason})`).join('; ')}\n`);
  }
  return { results: { ...results, sections: statuses }, rows, sections: statuses, exitCode: failed.length ? 1 : 0 };
}

/** The sections `--only` names (all when null), minus those `--skip` names; an unknown name is an error. */
export function selectSections<S extends Section>(all: readonly S[], opts: { only: string[] | null; skip: string[] | null }): S[] {
  const names = new Set(all.map((s) => s.name));
  const unknown = [...(opts.only ?? []), ...(opts.skip ?? [])].filter((n) => !names.has(n));
  if (unknown.length) {
    throw new Error(`unknown bench section(s) ${unknown.join(', ')}; the sections are ${[...names].join(', ')}`);
  }
  return all.filter((s) => (opts.only === null || opts.only.includes(s.name)) && !(opts.skip ?? []).includes(s.name));
}

/** A `RunnerIo.save` that (re)writes `latest.json` and `latest.md` in `dir`: what `npm run bench` keeps. */
export function saveInto(dir: string): RunnerIo['save'] {
  return (results, table) => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'latest.json'), JSON.stringify(results, null, 2));
    fs.writeFileSync(path.join(dir, 'latest.md'), `${table}\n`);
  };
}

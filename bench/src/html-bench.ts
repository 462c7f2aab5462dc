/**
 * HTML parsing: Parley's hand-written tokenizer and tree builder (server/src/knowledge/html-tree.ts)
 * against htmlparser2 (bench/src/html/htmlparser2-tree.ts), both measured for speed and agreement
 * with parse5 (the spec-exact WHATWG parser) on what ingestion keeps of a page: the same
 * extraction (boilerplate rules, main content, markdown rendering) runs on each parser's tree.
 *
 *   npx tsx bench/src/html-bench.ts [--runs 9] [--dir <folder of saved .html pages>] [--limit 200]
 *
 * The default corpus is the 90 help pages of shared/data/faq, each in a real-world page layout
 * (html/help-center-pages.ts), plus demo/site/index.html; then 25 pages of broken markup (where
 * parsers' error recovery differs); `--dir` adds pages saved from any site.
 * Speed: MB/s over the whole corpus (parsed 5 times a run), median of `--runs` runs, parsers
 * interleaved in one process.
 * Prints a table, then the figures as JSON on the last line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mainContentText } from '../../server/src/knowledge/html-to-text.js';
import { parseHtml, type ElementNode } from '../../server/src/knowledge/html-tree.js';
import { brokenMarkupPages, helpCenterPages, htmlFilesUnder, type BenchPage } from './html/help-center-pages.js';
import { htmlparser2Tree } from './html/htmlparser2-tree.js';
import { parse5Tree } from './html/parse5-tree.js';
import { round } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PARSERS: Record<string, (html: string) => ElementNode> = {
  'hand-written': parseHtml,
  htmlparser2: htmlparser2Tree,
  parse5: parse5Tree,
};

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** What ingestion keeps of a page, as comparable parts. */
function extraction(tree: ElementNode): { title: string | null; blocks: string[]; headings: string[]; anchors: string[] } {
  const { title, text } = mainContentText(tree, true);
  const blocks = text.split(/\n{2,}/).filter(Boolean);
  const headings = blocks.filter((b) => /^#{1,6} /.test(b));
  const anchors = headings.map((h) => /\{#([^}]+)\}$/.exec(h)?.[1]).filter((a): a is string => !!a);
  return { title, blocks, headings, anchors };
}

/** F1 of two multisets of blocks. */
function blockF1(a: string[], b: string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const x of b) counts.set(x, (counts.get(x) ?? 0) + 1);
  let common = 0;
  for (const x of a) {
    const n = counts.get(x) ?? 0;
    if (n > 0) {
      common++;
      counts.set(x, n - 1);
    }
  }
  return common === 0 ? 0 : (2 * common) / (a.length + b.length);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function agreement(pages: BenchPage[], parser: (html: string) => ElementNode) {
  let identical = 0,
    titles = 0,
    headings = 0,
    anchors = 0,
    f1 = 0;
  const differing: string[] = [];
  for (const page of pages) {
    const ref = extraction(parse5Tree(page.html));
    const got = extraction(parser(page.html));
    if (same(ref.blocks, got.blocks)) identical++;
    else differing.push(page.name);
    if (ref.title === got.title) titles++;
    if (same(ref.headings, got.headings)) headings++;
    if (same(ref.anchors, got.anchors)) anchors++;
    f1 += blockF1(got.blocks, ref.blocks);
  }
  const n = pages.length;
  return {
    identicalText: round(identical / n),
    sameTitle: round(titles / n),
    sameHeadings: round(headings / n),
    sameAnchors: round(anchors / n),
    blockF1: round(f1 / n),
    differing: differing.slice(0, 8),
  };
}

/** Each timed run parses the corpus this many times over, so that a run lasts well above timer and scheduler noise. */
const PASSES = 5;

function speed(pages: BenchPage[], runs: number) {
  const megabytes = (PASSES * pages.reduce((sum, p) => sum + Buffer.byteLength(p.html), 0)) / 1e6;
  const parse: Record<string, number[]> = {};
  const extract: Record<string, number[]> = {};
  for (let run = 0; run < runs + 1; run++) {
    for (const [name, parser] of Object.entries(PARSERS)) {
      let started = performance.now();
      for (let pass = 0; pass < PASSES; pass++) for (const page of pages) parser(page.html);
      const parseMs = performance.now() - started;
      started = performance.now();
      for (let pass = 0; pass < PASSES; pass++) for (const page of pages) mainContentText(parser(page.html), true);
      const extractMs = performance.now() - started;
      if (run === 0) continue; // warm-up
      (parse[name] ??= []).push(megabytes / (parseMs / 1000));
      (extract[name] ??= []).push(megabytes / (extractMs / 1000));
    }
  }
  return Object.fromEntries(
    Object.keys(PARSERS).map((name) => [
      name,
      {
        parseMBps: round(median(parse[name] as number[]), 2),
        parseSpreadMBps: round(Math.max(...(parse[name] as number[])) - Math.min(...(parse[name] as number[])), 2),
        extractMBps: round(median(extract[name] as number[]), 2),
      },
    ]),
  );
}

/** `runs` 0: agreement only (a corpus too small to time). */
function measure(label: string, pages: BenchPage[], runs: number) {
  const bytes = pages.reduce((sum, p) => sum + Buffer.byteLength(p.html), 0);
  return {
    corpus: label,
    pages: pages.length,
    megabytes: round(bytes / 1e6, 2),
    speed: runs > 0 ? speed(pages, runs) : {},
    agreementWithParse5: { 'hand-written': agreement(pages, parseHtml), htmlparser2: agreement(pages, htmlparser2Tree) },
  };
}

function printTable(result: ReturnType<typeof measure>): void {
  console.log(`\n${result.corpus}: ${result.pages} pages, ${result.megabytes} MB`);
  console.log('parser        parse MB/s (spread)  parse+extract MB/s  identical text  headings  anchors  titles  block F1');
  for (const name of Object.keys(PARSERS)) {
    const s = (result.speed as Record<string, { parseMBps: number; parseSpreadMBps: number; extractMBps: number }>)[name];
    const speedCells = s
      ? `${`${s.parseMBps} (±${round(s.parseSpreadMBps / 2, 2)})`.padEnd(20)} ${String(s.extractMBps).padEnd(19)}`
      : `${'-'.padEnd(20)} ${'-'.padEnd(19)}`;
    const a = (result.agreementWithParse5 as Record<string, ReturnType<typeof agreement>>)[name];
    const pct = (x: number | undefined): string => (x === undefined ? 'ref' : `${(x * 100).toFixed(1)} %`);
    console.log(
      `${name.padEnd(13)} ${speedCells} ${pct(a?.identicalText).padEnd(15)} ${pct(a?.sameHeadings).padEnd(9)} ${pct(a?.sameAnchors).padEnd(8)} ${pct(a?.sameTitle).padEnd(7)} ${a ? a.blockF1 : 'ref'}`,
    );
  }
}

const runs = Number(arg('runs') ?? 9);
const pages = [
  ...helpCenterPages(path.join(ROOT, '../shared/data/faq')),
  { name: 'demo/site/index.html', html: fs.readFileSync(path.join(ROOT, 'demo/site/index.html'), 'utf8') },
];
const results = [
  measure('help-center pages (shared/data/faq in three site layouts) + demo site', pages, runs),
  measure('broken markup (error-recovery cases)', brokenMarkupPages(), 0),
];
const dir = arg('dir');
if (dir) results.push(measure(`saved pages under ${dir}`, htmlFilesUnder(dir, Number(arg('limit') ?? 200)), runs));
for (const result of results) printTable(result);
console.log(JSON.stringify({ bench: 'html', node: process.version, runs, results }));

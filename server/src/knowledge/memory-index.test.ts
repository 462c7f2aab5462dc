import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';
import { createCorpus } from '../../../bench/src/corpus.js';
import { seededRandom } from '../lib/seeded-random.js';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import { analyzerFor } from '../text/text.js';
import { MemoryIndex } from './memory-index.js';
import { createRetriever } from './retrieval.js';
import { createKnowledgeStore } from './store.js';
import { openTestStorage } from '../../test/knowledge-storage.js';
import { createSqliteStorage } from '../storage/sqlite.js';
import { DATA_VERSION_EVERY_MS } from './change-feed.js';

const AT = '2026-01-01T00:00:00.000Z';

async function corpusDb(documents: number, kbCount = 1) {
  const storage = await openTestStorage();
  const store = createKnowledgeStore(storage);
  const kbs = [];
  for (let i = 0; i < kbCount; i++) kbs.push(await store.createKb('org_t', { name: `kb${i}`, description: null }, AT));
  const corpus = createCorpus({ documents, sectionsPerDocument: 4, sentencesPerSection: 3, vocabulary: 400, seed: 7 });
  let i = 0;
  for (const doc of corpus.documents()) await store.addDocument(kbs[i++ % kbCount]!.id, { ...doc, format: 'markdown' }, AT);
  return { storage, store, kbs, questions: corpus.questions(60) };
}

/**
 * Real text for the stemming comparison: the demo knowledge, the project's QA set and, when the
 * checkout sits beside it, the public SQuAD 2.0 sample (Wikipedia: accents, Greek, Chinese,
 * numbers, -ly adverbs), plus words that broke the hand-written Porter2 ("early", "only").
 */
function realTexts(): string[] {
  const texts = ["early only quickly 1990s café Ῥῆνος don't user's O'Neill naïve coöperate 中国人 ΣΟΦΙΑ"];
  const demo = path.join(REPO_ROOT, 'demo', 'knowledge');
  for (const f of fs.readdirSync(demo)) if (f.endsWith('.md')) texts.push(fs.readFileSync(path.join(demo, f), 'utf8'));
  const squadFiles = [
    path.join(REPO_ROOT, 'bench', 'data', 'quality', 'parley-qa.json'),
    path.resolve(REPO_ROOT, '..', 'shared', 'data', 'squad2-sample.json'),
  ];
  for (const file of squadFiles.filter((f) => fs.existsSync(f))) {
    const d = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      data: { title: string; paragraphs: { context: string; qas: { question: string }[] }[] }[];
    };
    for (const a of d.data) {
      texts.push(a.title);
      for (const p of a.paragraphs) texts.push(p.context, ...p.qas.map((q) => q.question));
    }
  }
  return texts;
}

/** XQuAD's paragraphs and questions in its 12 languages, when the checkout sits beside the shared data. */
function xquadTexts(): { text: string; language: string }[] {
  const out: { text: string; language: string }[] = [];
  for (const language of ['en', 'de', 'es', 'ru', 'zh', 'ar', 'hi', 'th', 'vi', 'tr', 'el', 'ro']) {
    const file = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'xquad', `xquad.${language}.json`);
    if (!fs.existsSync(file)) continue;
    const d = JSON.parse(fs.readFileSync(file, 'utf8')) as { data: { paragraphs: { context: string; qas: { question: string }[] }[] }[] };
    for (const a of d.data.slice(0, 6))
      for (const p of a.paragraphs) out.push({ text: p.context, language }, ...p.qas.map((q) => ({ text: q.question, language })));
  }
  return out;
}

describe('MemoryIndex terms', () => {
  it('are exactly the terms FTS5 indexes (fts5vocab over the chunks_fts tokenizer), token by token, on real text in every language', () => {
    const db = openDb(':memory:');
    migrate(db);
    // The production table's own tokenizer declaration, so a migration that changes it is compared too.
    const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").get() as { sql: string }).sql;
    const tokenizer = /tokenize\s*=\s*('[^']*')/.exec(sql)?.[1];
    expect(tokenizer).toBeDefined();
    db.exec(
      `CREATE VIRTUAL TABLE vocab_check USING fts5(body, tokenize = ${tokenizer}); CREATE VIRTUAL TABLE vocab_check_i USING fts5vocab(vocab_check, 'instance');`,
    );
    const texts = [...realTexts().map((text) => ({ text, language: 'en' })), ...xquadTexts()];
    const insert = db.prepare('INSERT INTO vocab_check (rowid, body) VALUES (?, ?)');
    // What the knowledge store writes (full-text.ts): the analyzer's terms, space-separated.
    db.transaction(() => texts.forEach((t, i) => insert.run(i + 1, analyzerFor(t.language).indexTerms(t.text).join(' '))))();
    const fts = new Map<number, string[]>();
    for (const r of db.prepare('SELECT term, doc, offset FROM vocab_check_i').iterate() as Iterable<{
      term: string;
      doc: number;
      offset: number;
    }>) {
      let terms = fts.get(r.doc);
      if (!terms) fts.set(r.doc, (terms = []));
      terms[r.offset] = r.term;
    }
    const index = new MemoryIndex();
    const differences: string[] = [];
    const languages = new Set<string>();
    let tokens = 0;
    texts.forEach(({ text, language }, i) => {
      const ours = index.termsOf(text, language);
      const theirs = fts.get(i + 1) ?? [];
      tokens += theirs.length;
      if (theirs.length) languages.add(language);
      const at = ours.findIndex((t, k) => t !== theirs[k]);
      if (at >= 0 || ours.length !== theirs.length) differences.push(`text ${i} (${language}): ${ours[at]} vs ${theirs[at]}`);
    });
    expect(differences).toEqual([]);
    expect(tokens).toBeGreaterThan(10_000);
    if (fs.existsSync(path.resolve(REPO_ROOT, '..', 'shared', 'data', 'xquad'))) expect(languages.size).toBe(12);
    // English is FTS5's Porter as before; German is Snowball's.
    expect(index.termsOf('early only quickly')).toEqual(['earli', 'onli', 'quickli']);
    expect(index.termsOf('Die Universitäten wurden gegründet', 'de')).toEqual(['die', 'universitat', 'wurd', 'gegrundet']);
  });
});

describe('MemoryIndex', () => {
  it('gives the same chunks and scores as FTS5 bm25() with the same column weights', async () => {
    const { storage, kbs, questions } = await corpusDb(120);
    const fts = createRetriever(storage, { memoryIndexMaxChunks: 0 });
    const memory = createRetriever(storage);
    expect(await memory.settledEngine()).toBe('memory');
    expect(memory.engine()).toBe('memory');
    expect(fts.engine()).toBe('fts');
    const sel = [{ id: kbs[0]!.id, priority: 5 }];
    let compared = 0;
    for (const q of questions) {
      const a = await fts.retrieve(q, sel, 8);
      const b = await memory.retrieve(q, sel, 8);
      expect(b.map((x) => x.chunkId)).toEqual(a.map((x) => x.chunkId));
      b.forEach((x, i) => expect(x.score).toBeCloseTo(a[i]!.score, 6));
      compared += a.length;
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('MaxScore returns exactly the exhaustive top k, across weighted bases and after deletions', async () => {
    const { storage, kbs, questions } = await corpusDb(60, 3);
    const rows = await storage.all<{ id: number; kb: string; title: string; headings: string; body: string }>(
      'SELECT id, knowledge_base_id AS kb, title, headings, body FROM chunks ORDER BY id',
    );
    const index = new MemoryIndex();
    for (const r of rows) index.add({ id: r.id, knowledgeBaseId: r.kb, title: r.title, headings: r.headings, body: r.body });
    index.compact();
    const rand = seededRandom(3);
    const removed = new Set<number>();
    for (const r of rows)
      if (rand() < 0.2) {
        index.remove(r.id);
        removed.add(r.id);
      }
    // Tombstoned chunks still count in df (as in FTS5 before a merge): the reference sees them too, with no weight.
    const weights = new Map([
      [kbs[0]!.id, 1.5],
      [kbs[1]!.id, 0.6],
      [kbs[2]!.id, 1],
    ]);
    for (const q of questions) {
      const terms = index.termsOf(q).filter((t) => !['how', 'do', 'i', 'the'].includes(t));
      for (const k of [1, 5, 12]) {
        const live = new Map(rows.map((r) => [r.id, r]));
        const got = index.search(terms, weights, k);
        // Document count and average length follow live chunks only.
        const wantLive = exhaustiveLive(index, rows, removed, terms, weights, k);
        expect(got.map((h) => h.chunkId)).toEqual(wantLive.map((h) => h.chunkId));
        got.forEach((h, i) => expect(h.score).toBeCloseTo(wantLive[i]!.score, 9));
        expect(got.every((h) => live.has(h.chunkId) && !removed.has(h.chunkId))).toBe(true);
      }
    }
  });

  it('adds after compaction land in the tail and are found; a removed chunk is never returned', () => {
    const index = new MemoryIndex();
    for (let i = 1; i <= 20; i++)
      index.add({ id: i, knowledgeBaseId: 'kb', title: 'T', headings: '', body: `alpha beta ${i % 2 ? 'gamma' : 'delta'}` });
    index.compact();
    index.add({ id: 21, knowledgeBaseId: 'kb', title: 'T', headings: 'Gamma', body: 'gamma gamma gamma' });
    const hits = index.search(['gamma'], new Map([['kb', 1]]), 3);
    expect(hits[0]!.chunkId).toBe(21);
    index.remove(21);
    expect(index.search(['gamma'], new Map([['kb', 1]]), 30).map((h) => h.chunkId)).not.toContain(21);
    expect(index.search(['gamma'], new Map([['other', 1]]), 3)).toEqual([]);
  });
});

describe('retriever on the memory index', () => {
  it('sees new documents and deletions at once', async () => {
    const { storage, store, kbs } = await corpusDb(10);
    const retriever = createRetriever(storage);
    // A second store on the same database, like the demo seeder: the retriever hears it too.
    const hooked = createKnowledgeStore(storage);
    const sel = [{ id: kbs[0]!.id, priority: 5 }];
    expect(await retriever.retrieve('zebra crossing rules', sel, 3)).toEqual([]);
    const doc = await hooked.addDocument(
      kbs[0]!.id,
      { title: 'Zebra', content: 'Zebra crossings give walkers the right of way.', format: 'text', url: null },
      AT,
    );
    expect(await retriever.settledEngine()).toBe('memory');
    expect((await retriever.retrieve('zebra crossing rules', sel, 3)).map((h) => h.documentId)).toEqual([doc.id]);
    await hooked.deleteDocument(kbs[0]!.id, doc.id, AT);
    expect(await retriever.retrieve('zebra crossing rules', sel, 3)).toEqual([]);
    // The deleted chunk held the highest id, which SQLite hands out again: still found.
    const again = await hooked.addDocument(
      kbs[0]!.id,
      { title: 'Shop', content: 'The shop opens at nine.', format: 'text', url: null },
      AT,
    );
    expect((await retriever.retrieve('when does the shop open', sel, 3)).map((h) => h.documentId)).toEqual([again.id]);
    expect(await store.getDocument(kbs[0]!.id, doc.id)).toBeNull();
  });

  it('a chunk deleted while a catch-up read is in flight is not indexed by it', async () => {
    const { storage, store, kbs } = await corpusDb(4);
    const retriever = createRetriever(storage);
    const sel = [{ id: kbs[0]!.id, priority: 5 }];
    expect(await retriever.settledEngine()).toBe('memory');
    const doc = await store.addDocument(
      kbs[0]!.id,
      { title: 'Zebra', content: 'Zebra crossings give walkers the right of way.', format: 'text', url: null },
      AT,
    );
    // The question's catch-up and the delete interleave: the delete's notice arrives after the
    // catch-up read the new chunk and before it is added.
    const asking = retriever.retrieve('zebra crossing rules', sel, 3);
    const deleting = store.deleteDocument(kbs[0]!.id, doc.id, AT);
    await Promise.all([asking, deleting]);
    expect(await retriever.retrieve('zebra crossing rules', sel, 3)).toEqual([]);
    await storage.close();
  });

  it('a commit from another connection rebuilds the replica (PRAGMA data_version, SQLite)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-feed-'));
    const file = path.join(dir, 'kb.db');
    try {
      const first = openDb(file);
      migrate(first);
      const a = createSqliteStorage(first);
      await a.run("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_t', 'T', 'free', ?)", [AT]);
      const kb = await createKnowledgeStore(a).createKb('org_t', { name: 'kb', description: null }, AT);
      const retriever = createRetriever(a);
      const sel = [{ id: kb.id, priority: 5 }];
      expect(await retriever.retrieve('zebra', sel, 3)).toEqual([]);
      const b = createSqliteStorage(openDb(file));
      const doc = await createKnowledgeStore(b).addDocument(
        kb.id,
        { title: 'Zebra', content: 'Zebra crossings give walkers the right of way.', format: 'text', url: null },
        AT,
      );
      await new Promise((res) => setTimeout(res, DATA_VERSION_EVERY_MS)); // the feed reads data_version at most this often
      expect((await retriever.retrieve('zebra', sel, 3)).map((h) => h.documentId)).toEqual([doc.id]);
      await createKnowledgeStore(b).deleteDocument(kb.id, doc.id, AT);
      await new Promise((res) => setTimeout(res, DATA_VERSION_EVERY_MS));
      expect(await retriever.retrieve('zebra', sel, 3)).toEqual([]);
      await b.close();
      await a.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

interface TokenizedChunk {
  id: number;
  kb: string;
  cols: (readonly [string[], number])[];
  length: number;
  live: boolean;
}
const tokenized = new WeakMap<object, TokenizedChunk[]>();

/** bm25 by brute force over every live chunk: the reference MaxScore must agree with. */
function exhaustiveLive(
  index: MemoryIndex,
  rows: { id: number; kb: string; title: string; headings: string; body: string }[],
  removed: Set<number>,
  terms: string[],
  weights: Map<string, number>,
  k: number,
) {
  const docs =
    tokenized.get(rows) ??
    rows.map((c): TokenizedChunk => {
      const cols = [
        [index.termsOf(c.title), 2],
        [index.termsOf(c.headings), 1.5],
        [index.termsOf(c.body), 1],
      ] as const;
      return { id: c.id, kb: c.kb, cols: [...cols], length: cols.reduce((a, [t]) => a + t.length, 0), live: !removed.has(c.id) };
    });
  tokenized.set(rows, docs);
  const liveDocs = docs.filter((d) => d.live);
  const n = liveDocs.length;
  const avgdl = liveDocs.reduce((a, d) => a + d.length, 0) / n;
  // Tombstones count in df, as documented.
  const dfs = new Map([...new Set(terms)].map((term) => [term, docs.filter((x) => x.cols.some(([t]) => t.includes(term))).length]));
  return liveDocs
    .map((d) => {
      let score = 0;
      for (const term of new Set(terms)) {
        const df = dfs.get(term) as number;
        if (!df) continue;
        const idf = Math.max(Math.log((n - df + 0.5) / (df + 0.5)), 1e-6);
        const f = d.cols.reduce((a, [t, w]) => a + w * t.filter((x) => x === term).length, 0);
        if (f) score += (idf * (f * 2.2)) / (f + 1.2 * (0.25 + (0.75 * d.length) / avgdl));
      }
      return { chunkId: d.id, score: score * (weights.get(d.kb) ?? 0) };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
    .slice(0, k);
}

describe('query text that is not plain English', () => {
  it('survives quotes, FTS syntax and punctuation, folds Latin accents, and finds other scripts', async () => {
    const { storage, kbs } = await corpusDb(3);
    const retriever = createRetriever(storage);
    const store = createKnowledgeStore(storage);
    const kb = kbs[0]!.id;
    const add = async (title: string, content: string) =>
      (await store.addDocument(kb, { title, content, format: 'text', url: null }, AT)).id;
    const cafe = await add('Café', 'Le café ouvre à huit heures. Réservez une table en ligne.');
    const ger = await add('Ärger', 'Bei Ärger mit der Rechnung hilft der Kundendienst.');
    const jp = await add('配送', '配送には通常三日かかります。');
    const ru = await add('Доставка', 'Доставка занимает три дня.');
    const sel = [{ id: kb, priority: 5 }];
    const top = async (q: string) => (await retriever.retrieve(q, sel, 1))[0]?.documentId;
    for (const q of ['"cafe" AND heures*', 'cafe NEAR(ouvre) -- ;DROP', "caf\u00e9's opening (heures)?", 'CAFÉ: {ouvre} ^huit'])
      expect(await top(q)).toBe(cafe);
    expect(await top('arger rechnung')).toBe(ger);
    expect(await top('配送は何日?')).toBe(jp);
    expect(await top('доставка')).toBe(ru);
    expect(await retriever.retrieve('"" * ( ) : ^ - {} ;', sel, 3)).toEqual([]);
    // The FTS engine gives the same answers for the accent and syntax cases.
    const fts = createRetriever(storage, { memoryIndexMaxChunks: 0 });
    expect((await fts.retrieve('"cafe" AND heures*', sel, 1))[0]?.documentId).toBe(cafe);
    expect((await fts.retrieve('arger rechnung', sel, 1))[0]?.documentId).toBe(ger);
  });
});

describe('query terms', () => {
  it('finds possessives and dotted abbreviations the same way on both engines', async () => {
    const { storage, kbs } = await corpusDb(3);
    const store = createKnowledgeStore(storage);
    const kb = kbs[0]!.id;
    const powell = (
      await store.addDocument(
        kb,
        {
          title: 'Expedition',
          content: 'John Wesley Powell led the expedition down the Colorado River in 1869.',
          format: 'text',
          url: null,
        },
        AT,
      )
    ).id;
    await store.addDocument(kb, { title: "Powell's boats", content: "Powell's boats were made of oak.", format: 'text', url: null }, AT);
    const sel = [{ id: kb, priority: 5 }];
    for (const retriever of [createRetriever(storage), createRetriever(storage, { memoryIndexMaxChunks: 0 })]) {
      const ids = (await retriever.retrieve("In what year did Powell's expedition take place?", sel, 2)).map((h) => h.documentId);
      expect(ids[0]).toBe(powell);
      // "U.S." must not turn into the lone letters u and s, which match nearly every chunk.
      expect((await retriever.retrieve('U.S. Colorado', sel, 1))[0]?.documentId).toBe(powell);
    }
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf } from '../../server/test/document-files.js';
import { fakeSite, page as sitePage, type FakeSite, type Route } from '../../server/test/fake-site.js';
import { buildPrivateDashboard } from './private-build.js';
import { SHOTS, expectAccessible, launchBrowser, newPage, startTestServer, sweep, type Server } from './support.js';

// Knowledge as a new owner builds it: register → create a base → drop a PDF and a DOCX (and a
// file the server refuses, with its message) → add a file with the keyboard file input → crawl
// a local site and watch its progress live → test retrieval → a document's chunks → delete.

let server: Server;
let browser: Browser;
let build: ReturnType<typeof buildPrivateDashboard>;
let site: FakeSite;

beforeAll(async () => {
  // Pages chained one level deeper each and slow to answer: the crawl takes a few seconds,
  // long enough to watch it run.
  build = buildPrivateDashboard();
  const chain = ['/', '/p1', '/p2', '/p3', '/p4'];
  const routes: Record<string, Route> = { '/robots.txt': { status: 404 } };
  const topics = ['Zebulon umbrellas', 'Returning umbrellas', 'Shipping to Mars', 'Warranty of ribs', 'Gift wrapping'];
  chain.forEach((path, i) => {
    const next = chain[i + 1];
    routes[path] = {
      delayMs: 500,
      body: sitePage(
        topics[i]!,
        `<p>${topics[i]} explained: the answer for topic ${i} is ${['alpha', 'bravo', 'charlie', 'delta', 'echo'][i]}.</p>`,
        { links: next ? [next] : [] },
      ),
    };
  });
  [server, browser, site] = await Promise.all([
    startTestServer({ config: { fetchAllowPrivate: true }, dashboardDir: build.dir }),
    launchBrowser(),
    fakeSite(routes),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await server?.close();
  build?.remove();
});

/** Drops files on the drop zone the way a browser does: a DataTransfer with File objects. */
async function dropFiles(page: Page, files: Array<{ name: string; type: string; bytes: Uint8Array }>): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, type: f.type, b64: Buffer.from(f.bytes).toString('base64') }));
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bin = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bin], f.name, { type: f.type }));
    }
    return dt;
  }, payload);
  const zone = page.getByRole('group', { name: 'Drop files to upload' });
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

describe('knowledge', () => {
  it('register → base → drop PDF + DOCX → keyboard upload → crawl watched live → retrieval → chunks → delete', async () => {
    const { context, page, errors } = await newPage(browser);
    // Register a new owner.
    await page.goto(`${server.url}/dashboard/register`);
    await page.getByLabel('Organization name').fill('Zebulon Ltd');
    await page.getByLabel('Email').fill('owner@zebulon.example');
    await page.getByLabel('Password').fill('zebulon password 1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    // Create a base; an empty name is refused at the field and the dialog stays.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge', exact: true }).click();
    await page.getByRole('heading', { name: 'No knowledge bases yet' }).waitFor();
    await expectAccessible(page, 'knowledge: empty');
    await page.getByRole('button', { name: 'New knowledge base' }).click();
    const dialog = page.getByRole('dialog', { name: 'New knowledge base' });
    await dialog.getByLabel('Name').fill('   ');
    await dialog.getByRole('button', { name: 'Create knowledge base' }).click();
    await dialog.getByRole('alert').first().waitFor();
    await dialog.getByLabel('Name').fill('Umbrella help');
    await dialog.getByLabel('Description').fill('Everything about our umbrellas');
    await expectAccessible(page, 'new knowledge base dialog');
    await dialog.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByRole('heading', { name: 'Umbrella help', level: 1 }).waitFor();
    const kbPath = new URL(page.url()).pathname;
    expect(kbPath).toMatch(/^\/dashboard\/knowledge\/kb_/);

    // Drop a PDF, a DOCX and a file type the server refuses: two land, one shows the server's reason.
    const pdf = await makePdf([
      ['# Storm policy', 'Umbrellas bent by a storm are replaced for free within one year.'],
      ['# Colours', 'The umbrella comes in teal and saffron.'],
    ]);
    const docx = await makeDocx([
      { text: 'Folding', style: 'Heading1' },
      { text: 'Fold the umbrella by pressing the brass button twice.' },
    ]);
    await dropFiles(page, [
      { name: 'storm-policy.pdf', type: 'application/pdf', bytes: pdf },
      { name: 'folding.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', bytes: docx },
      { name: 'setup.exe', type: 'application/octet-stream', bytes: new Uint8Array([77, 90, 0, 1]) },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await uploads.getByRole('alert').filter({ hasText: 'setup.exe: Unsupported file type' }).waitFor();
    await page
      .getByRole('link', { name: 'storm-policy' })
      .or(page.getByRole('link', { name: /Storm policy|storm-policy/ }))
      .first()
      .waitFor();
    await page
      .getByRole('link', { name: /folding/i })
      .first()
      .waitFor();
    expect(await uploads.getByText('added').count()).toBe(2);
    await expectAccessible(page, 'knowledge base with uploads');
    await page.screenshot({ path: `${SHOTS}/knowledge-base-uploads-light-1280.png`, fullPage: true });

    // The keyboard path: the ordinary file input.
    await page
      .getByLabel('Choose files')
      .setInputFiles([
        { name: 'hours.md', mimeType: 'text/markdown', buffer: Buffer.from('# Opening hours\n\nThe umbrella kiosk opens at nine.') },
      ]);
    await page.getByRole('link', { name: /hours/i }).first().waitFor();

    // Crawl the local site and watch it run.
    await page.getByLabel('URL').fill(`${site.origin}/`);
    await page.getByLabel('Crawl the site from this page').check();
    await page.getByLabel('Max pages').fill('5');
    await page.getByLabel('Max depth').fill('4');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    const crawlRow = page.getByRole('row').filter({ hasText: site.origin });
    await crawlRow.getByText(/pages indexed/).waitFor({ timeout: 15_000 });
    await page.getByRole('status').filter({ hasText: 'Updating live' }).waitFor();
    await expectAccessible(page, 'knowledge base while crawling');
    await page.screenshot({ path: `${SHOTS}/knowledge-base-crawling-light-1280.png`, fullPage: true });
    await crawlRow.getByText('ready').waitFor({ timeout: 20_000 });
    const chunks = Number(await crawlRow.getByRole('cell').nth(3).textContent());
    expect(chunks).toBeGreaterThanOrEqual(5);
    expect(site.requests.filter((r) => r.startsWith('/p')).length).toBeGreaterThanOrEqual(4);

    // Test retrieval: ranked passages with scores.
    await page.getByLabel('Question').fill('how are umbrellas bent by a storm replaced');
    await page.getByRole('button', { name: 'Search' }).click();
    const passages = page.getByRole('list', { name: 'Ranked passages' });
    await passages.waitFor();
    await expect.poll(() => passages.getByRole('listitem').first().textContent()).toMatch(/replaced for free/);
    expect(
      await passages
        .getByRole('listitem')
        .first()
        .getByText(/^score \d/)
        .count(),
    ).toBe(1);
    await expectAccessible(page, 'test retrieval results');

    // Re-sync the crawl.
    await crawlRow.getByRole('button', { name: /^Re-sync/ }).click();
    await crawlRow.getByText('ready').waitFor({ timeout: 20_000 });

    // A document's page: metadata and chunks with heading paths and PDF pages.
    await page.getByRole('link', { name: /storm/i }).first().click();
    await page.getByRole('heading', { name: 'Chunks' }).waitFor();
    const chunkList = page.getByRole('list', { name: 'Chunks' });
    await chunkList.getByText('Storm policy').first().waitFor();
    await chunkList.getByText('page 2').waitFor();
    await expectAccessible(page, 'document page');
    await page.getByRole('link', { name: 'Umbrella help' }).click();
    await page.getByRole('heading', { name: 'Umbrella help', level: 1 }).waitFor();

    // Delete a document with confirmation.
    const hoursRow = page.getByRole('row').filter({ hasText: 'hours' });
    await hoursRow.getByRole('button', { name: /^Delete/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this document?' });
    await expectAccessible(page, 'delete document dialog');
    await confirm.getByRole('button', { name: 'Delete document' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'hours' }).count()).toBe(0);

    // Rename, then delete the base.
    await page.getByRole('button', { name: 'Rename or describe' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename or describe' });
    await rename.getByLabel('Name').fill('Umbrella handbook');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Umbrella handbook', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete knowledge base' }).click();
    await page.getByRole('dialog', { name: 'Delete this knowledge base?' }).getByRole('button', { name: 'Delete knowledge base' }).click();
    await page.waitForURL('**/dashboard/knowledge');
    await page.getByRole('heading', { name: 'No knowledge bases yet' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  // One page per test: each sweep is 4 sign-ins, screenshots and axe runs, and on a loaded
  // two-core CI machine three of them did not fit in one 90 s budget.
  it('screenshots: the knowledge list (light/dark, 1280/768) with axe', async () => {
    await sweep(browser, server, 'knowledge-bases', async (page) => {
      await page.goto(`${server.url}/dashboard/knowledge`);
      await page.getByRole('table').waitFor();
    });
  }, 90_000);

  it('screenshots: a base with a retrieval test (light/dark, 1280/768) with axe', async () => {
    await sweep(browser, server, 'knowledge-base', async (page) => {
      await page.goto(`${server.url}/dashboard/knowledge/${server.knowledgeBaseId}`);
      await page.getByRole('table').waitFor();
      await page.getByLabel('Question').fill('how do I reset my password');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('list', { name: 'Ranked passages' }).waitFor();
    });
  }, 90_000);

  it('screenshots: a document (light/dark, 1280/768) with axe', async () => {
    const docs = (await (
      await fetch(`${server.url}/v1/knowledge-bases/${server.knowledgeBaseId}/documents`, {
        headers: { Authorization: `Bearer ${server.apiKey}` },
      })
    ).json()) as { data: Array<{ id: string }> };
    await sweep(browser, server, 'document', async (page) => {
      await page.goto(`${server.url}/dashboard/knowledge/${server.knowledgeBaseId}/documents/${docs.data[0]!.id}`);
      await page.getByRole('list', { name: 'Chunks' }).waitFor();
    });
  }, 90_000);
});

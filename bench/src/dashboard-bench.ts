import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHUNK_BUDGET_BYTES, DIST, FIRST_LOAD_BUDGET_BYTES, measureDashboard } from '../../dashboard/budget.js';
import { startTestServer } from '../../server/test/test-server.js';
import { summarize } from './stats.js';

const CHROMIUM = '/usr/bin/chromium';
const DEMO_LOGIN = { email: 'demo@parley.local', password: 'parley-demo-password' };

export function dashboardSizes() {
  const { firstLoadGzipBytes, chunks } = measureDashboard();
  return {
    firstLoadGzipBytes,
    budgetFirstLoadBytes: FIRST_LOAD_BUDGET_BYTES,
    largestChunk: chunks[0] ?? null,
    budgetChunkBytes: CHUNK_BUDGET_BYTES,
    chunks,
  };
}

/**
 * Time from navigation start to the first screen being interactive (the overview's heading and
 * the main navigation rendered, the session already resolved), signed in, cold HTTP cache, in
 * Debian's headless Chromium against a demo server. Target: under 300 ms.
 */
export async function runDashboardBench(runs = 15) {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) return { sizes: null, interactiveMs: null, note: 'dashboard not built' };
  const sizes = dashboardSizes();
  if (!fs.existsSync(CHROMIUM)) return { sizes, interactiveMs: null, note: 'chromium not installed' };
  const server = await startTestServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const samples: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext();
      // Sign in as the dashboard does (CSRF header, same origin): the cookie lands in this context.
      const login = await context.request.post(`${server.url}/v1/auth/login`, {
        headers: { 'X-Parley-CSRF': '1', Origin: server.url },
        data: DEMO_LOGIN,
      });
      if (!login.ok()) throw new Error(`login failed: ${login.status()} ${await login.text()}`);
      const page = await context.newPage();
      await page.addInitScript(`(() => {
        const check = () => {
          const ready = document.querySelector('nav[aria-label="Main"]') && document.querySelector('main h1');
          if (ready) window.__interactiveAt = performance.now();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      })()`);
      await page.goto(`${server.url}/dashboard/`);
      await page.waitForFunction(() => (window as unknown as { __interactiveAt?: number }).__interactiveAt !== undefined, undefined, {
        timeout: 10_000,
      });
      samples.push(await page.evaluate(() => (window as unknown as { __interactiveAt: number }).__interactiveAt));
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { sizes, interactiveMs: summarize(samples) };
}

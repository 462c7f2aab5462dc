import fs from 'node:fs';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { WIDGET_FILE } from '../../server/src/paths.js';
import { startTestServer } from '../../server/test/test-server.js';
import { summarize } from './stats.js';

const CHROMIUM = '/usr/bin/chromium';
const BUDGET_BYTES = 15 * 1024;

/**
 * The widget's weight (gzip, the budget of issue 3) and the time from the script starting to
 * load to the launcher being visible, in Debian's headless Chromium on the demo page.
 */
export async function runWidgetBench(runs = 15) {
  const raw = fs.readFileSync(WIDGET_FILE);
  const size = { bytes: raw.length, gzipBytes: zlib.gzipSync(raw, { level: 9 }).length, budgetGzipBytes: BUDGET_BYTES };
  if (!fs.existsSync(CHROMIUM)) return { size, launcherVisibleMs: null, note: 'chromium not installed' };
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
      const context = await browser.newContext(); // cold HTTP cache each run
      const page = await context.newPage();
      // Watch every frame inside the page, so the test harness's polling adds nothing.
      // A string, not a function: tsx would inject helper calls the page does not have.
      await page.addInitScript(`(() => {
        const check = () => {
          const launcher = document.querySelector('parley-widget')?.shadowRoot?.querySelector('[data-parley="launcher"]');
          const box = launcher?.getBoundingClientRect();
          if (box && box.width > 0 && box.height > 0) window.__launcherAt = performance.now();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      })()`);
      await page.goto(`${server.url}/demo/`);
      await page.waitForFunction(() => (window as unknown as { __launcherAt?: number }).__launcherAt !== undefined);
      // From the moment the browser started fetching widget.js to the first frame showing the launcher.
      const ms = await page.evaluate(() => {
        const entry = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/js/widget.js'));
        return (window as unknown as { __launcherAt: number }).__launcherAt - (entry?.startTime ?? 0);
      });
      samples.push(ms);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { size, launcherVisibleMs: summarize(samples) };
}

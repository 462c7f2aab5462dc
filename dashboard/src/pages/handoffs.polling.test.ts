import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import { refreshHandoffs, startHandoffPolling, type Visibility } from '../lib/handoffs.js';
import { pendingHandoffs } from '../lib/nav-badges.js';
import { widgetHandoff } from './analytics.traffic.js';

// The navigation's live "Needs a human" count against a real server: it follows new requests
// while the page is visible, asks nothing while hidden, catches up at once when shown again,
// and stops when told to.

let server: Server;
beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.storage.run("UPDATE organizations SET plan = 'enterprise'");
});
afterAll(async () => {
  await server?.close();
});

/** A page whose visibility the test flips (a real EventTarget). */
class TestPage extends EventTarget implements Visibility {
  visibilityState = 'visible';
  show(state: 'visible' | 'hidden') {
    this.visibilityState = state;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('handoff count polling', () => {
  it('follows the count while visible, pauses while hidden, catches up when shown, stops', async () => {
    const page = new TestPage();
    pendingHandoffs.value = -1;
    const stop = startHandoffPolling(clientFor(server), 40, page);
    await expect.poll(() => pendingHandoffs.value).toBe(0);

    await widgetHandoff(server);
    await expect.poll(() => pendingHandoffs.value).toBe(1);

    page.show('hidden');
    await refreshHandoffs(); // joins a poll still in flight, so none lands after the next request
    await widgetHandoff(server, 'Can I talk to someone?');
    await sleep(200);
    expect(pendingHandoffs.value).toBe(1);

    // Hidden, no timer is left: only the visibility change itself can ask again.
    page.show('visible');
    await expect.poll(() => pendingHandoffs.value, { timeout: 15_000, interval: 5 }).toBe(2);

    stop();
    await widgetHandoff(server, 'Hello, anyone there?');
    await refreshHandoffs();
    await sleep(200);
    expect(pendingHandoffs.value).toBe(2);
  });
});

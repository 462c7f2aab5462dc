import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from './logger.js';
import { ParleyError } from './parley-error.js';
import { startSettingsWatcher } from './settings-watcher.js';

function sourceOf(records: (Record<string, unknown> | Error)[]) {
  let i = 0;
  return {
    calls: () => i,
    getAssistant: async () => {
      const next = records[Math.min(i, records.length - 1)]!;
      i += 1;
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

describe('settings watcher', () => {
  it('fails loudly at start when the assistant cannot be read (misconfiguration)', async () => {
    const source = sourceOf([new ParleyError('Invalid API key', 401, 'authentication_error')]);
    await expect(startSettingsWatcher({ parley: source, intervalMs: 0, logger: createMemoryLogger() })).rejects.toThrow('Invalid API key');
  });

  it('applies a change and tells listeners; keeps the last good settings when a poll fails', async () => {
    const logger = createMemoryLogger();
    const source = sourceOf([
      { slack: { channels: [] } },
      { slack: { channels: ['C1'] } },
      new Error('boom'),
      { slack: { channels: ['C1'] } },
    ]);
    const watcher = await startSettingsWatcher({ parley: source, intervalMs: 0, logger });
    const changes: string[][] = [];
    watcher.onChange((next) => void changes.push(next.slack.channels));

    expect(await watcher.refresh()).toBe(true);
    expect(watcher.current().slack.channels).toEqual(['C1']);
    expect(await watcher.refresh()).toBe(false);
    expect(watcher.current().slack.channels).toEqual(['C1']);
    expect(logger.entries.some((e) => e.level === 'warn')).toBe(true);
    expect(await watcher.refresh()).toBe(false);
    expect(changes).toEqual([['C1']]);
  });

  it('polls on its own every intervalMs', async () => {
    const source = sourceOf([{ discord: { command: 'ask' } }, { discord: { command: 'question' } }]);
    const watcher = await startSettingsWatcher({ parley: source, intervalMs: 20, logger: createMemoryLogger() });
    try {
      await expect.poll(() => watcher.current().discord.command, { timeout: 10_000 }).toBe('question');
    } finally {
      watcher.stop();
    }
    const calls = source.calls();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(source.calls()).toBe(calls);
  });
});

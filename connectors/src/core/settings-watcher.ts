import { parseBotSettings, type BotSettings } from './bot-settings.js';
import { ENGLISH_TEXTS, NO_LOCALIZATIONS, parseBotTexts, parseTextLocalizations, type BotTexts, type TextLocalizations } from './texts.js';
import { describeError, type Logger } from './logger.js';
import type { ParleyClient } from './parley-client.js';

export interface SettingsWatcher {
  /** The latest settings read; commands call this on every message so changes apply at once. */
  current(): BotSettings;
  /** Reads the assistant again now; true when something changed. Never throws (keeps the last good settings). */
  refresh(): Promise<boolean>;
  onChange(listener: (next: BotSettings, previous: BotSettings) => void | Promise<void>): void;
  stop(): void;
}

export interface SettingsWatcherOptions {
  /** getTexts optional: without it (or when it fails) the bot speaks English (core/texts.ts). */
  parley: Pick<ParleyClient, 'getAssistant'> & Partial<Pick<ParleyClient, 'getTexts'>>;
  /** 0 disables polling (tests call refresh() themselves). */
  intervalMs: number;
  logger: Logger;
}

/**
 * Loads the bot settings once — failing loudly, since a connector that cannot read its assistant
 * is misconfigured (wrong key, id or URL) — then polls so an admin's change in the dashboard
 * takes effect without restarting the process.
 */
export async function startSettingsWatcher(options: SettingsWatcherOptions): Promise<SettingsWatcher> {
  // The texts are best effort: a server without the endpoint, or a failed read, keeps the ones before.
  type Texts = { texts: BotTexts; localizations: TextLocalizations };
  const readTexts = async (previous: Texts): Promise<Texts> => {
    if (!options.parley.getTexts) return previous;
    try {
      const data = await options.parley.getTexts();
      return { texts: parseBotTexts(data), localizations: parseTextLocalizations(data) };
    } catch (err) {
      options.logger.warn('could not read the bot texts; keeping the previous ones', describeError(err));
      return previous;
    }
  };
  const settingsFrom = (assistant: Record<string, unknown>, t: Texts) => parseBotSettings(assistant, t.texts, t.localizations);
  let texts = await readTexts({ texts: ENGLISH_TEXTS, localizations: NO_LOCALIZATIONS });
  let settings = settingsFrom(await options.parley.getAssistant(), texts);
  const listeners: ((next: BotSettings, previous: BotSettings) => void | Promise<void>)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<boolean> | undefined;

  async function load(): Promise<boolean> {
    let next: BotSettings;
    try {
      const assistant = await options.parley.getAssistant();
      texts = await readTexts(texts);
      next = settingsFrom(assistant, texts);
    } catch (err) {
      options.logger.warn('could not refresh bot settings; keeping the previous ones', describeError(err));
      return false;
    }
    if (JSON.stringify(next) === JSON.stringify(settings)) return false;
    const previous = settings;
    settings = next;
    options.logger.info('bot settings changed');
    for (const listener of listeners) {
      try {
        await listener(next, previous);
      } catch (err) {
        options.logger.error('bot settings listener failed', describeError(err));
      }
    }
    return true;
  }

  if (options.intervalMs > 0) {
    timer = setInterval(() => void watcher.refresh(), options.intervalMs);
    // Polling must not keep a process alive that is otherwise shutting down.
    timer.unref();
  }

  const watcher: SettingsWatcher = {
    current: () => settings,
    refresh() {
      // Overlapping polls (a slow server) would race each other; share the one in flight.
      inFlight ??= load().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    onChange(listener) {
      listeners.push(listener);
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
  return watcher;
}

/** A fixed source of settings, for tests of a single command. */
export function staticSettings(settings: BotSettings): SettingsWatcher {
  return { current: () => settings, refresh: async () => false, onChange() {}, stop() {} };
}

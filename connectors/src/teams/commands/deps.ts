import type { Logger } from '../../core/logger.js';
import type { ParleyClient } from '../../core/parley-client.js';
import type { SettingsWatcher } from '../../core/settings-watcher.js';

export interface TeamsCommandDeps {
  parley: ParleyClient;
  settings: SettingsWatcher;
  logger: Logger;
  /** Interval of the typing indicator while Parley answers. */
  typingIntervalMs?: number;
}

import type { Logger } from '../../core/logger.js';
import type { ParleyClient } from '../../core/parley-client.js';
import type { SettingsWatcher } from '../../core/settings-watcher.js';

export interface SlackCommandDeps {
  parley: ParleyClient;
  settings: SettingsWatcher;
  logger: Logger;
}

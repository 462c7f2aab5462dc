/**
 * The interface texts Parley itself shows (not the owner's knowledge, not the model's answers):
 * the widget's labels, the connectors' own replies and the assistant's default messages, one
 * table per language in `locales/`. They live on the server so widget.js does not grow with each
 * language: the widget config and the connectors' texts endpoint carry the resolved set.
 *
 * `{name}` in a text is the assistant's name, filled in by whoever shows it.
 */

/** What the widget shows (docs/api-spec.md §12: at least the first eleven); overridable per assistant (`widget.strings`). */
export const WIDGET_TEXT_KEYS = [
  'placeholder',
  'send',
  'open',
  'close',
  'newConversation',
  'helpful',
  'notHelpful',
  'sources',
  'talkToHuman',
  'offline',
  'error',
  // The rest of what the widget shows today.
  'dialog',
  'subtitle',
  'inputLabel',
  'wasHelpful',
  'suggestions',
  'supportTeam',
  'needHelp',
  'contactPage',
  'handoffRequested',
  'retry',
  'rateLimited',
  'forbidden',
  'notFound',
  'invalid',
] as const;

/** The connectors' own replies beyond the widget's (`sources`, `error`, `rateLimited` are shared), and the
 * suggestions line of a fallback answer to an API client or connector (`askAbout`). */
export const CONNECTOR_TEXT_KEYS = [
  'timeout',
  'unreachable',
  'tooLong',
  'misconfigured',
  'gone',
  'confidence',
  'source',
  'feedbackThanks',
  'feedbackExpired',
  'askHint',
  'exampleQuestion',
  'askAbout',
  // Slack's "<@user> asked: …" line, the channel and command notices, an empty answer's stand-in.
  'askedBy',
  'notActive',
  'wrongCommand',
  'commandGone',
  'notHandled',
  'noAnswer',
  // Discord's slash command: its description (when the owner wrote none) and its question option's.
  'askCommand',
  'askOption',
] as const;

/**
 * Texts a platform shows each user in the user's own language rather than the assistant's:
 * Discord picks a command's description by the reader's client locale (`description_localizations`).
 */
export const LOCALIZED_TEXT_KEYS = ['askCommand', 'askOption'] as const satisfies readonly ConnectorTextKey[];
export type LocalizedTextKey = (typeof LOCALIZED_TEXT_KEYS)[number];

/** An assistant's messages whose defaults follow its language until the owner writes their own. */
export const DEFAULT_MESSAGE_KEYS = ['fallback', 'handoff', 'welcome'] as const;

export type WidgetTextKey = (typeof WIDGET_TEXT_KEYS)[number];
export type ConnectorTextKey = (typeof CONNECTOR_TEXT_KEYS)[number];
export type DefaultMessageKey = (typeof DEFAULT_MESSAGE_KEYS)[number];
export type WidgetTexts = Record<WidgetTextKey, string>;
export type ConnectorTexts = Record<ConnectorTextKey, string>;

export interface Locale {
  widget: WidgetTexts;
  connector: ConnectorTexts;
  defaults: Record<DefaultMessageKey, string>;
}

/** An owner's override of one widget text: the number the schema and the dashboard enforce. */
export const MAX_WIDGET_TEXT_LENGTH = 200;

import type { ChatSource } from '../core/parley-types.js';
import { sourceLabel, type ReplyStyle } from '../core/format-reply.js';

/** Slack's three control characters in message text (docs: "Escaping text"). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Assistants answer in Markdown; Slack speaks mrkdwn. The two differences that garble an answer
 * most are converted: `[label](url)` links and `**bold**`. Everything else reads fine as is.
 * The text is escaped first, so nothing from the answer can form a Slack mention or link.
 */
export function markdownToMrkdwn(markdown: string): string {
  return escapeMrkdwn(markdown)
    .replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g, (_m, label: string, url: string) => `<${url}|${label.replace(/\|/g, '¦')}>`)
    .replace(/\*\*([^*\n]+)\*\*/g, '*$1*');
}

export const slackStyle: ReplyStyle = {
  sourcesHeading: (label) => `*${escapeMrkdwn(label)}*`,
  escapeText: markdownToMrkdwn,
  formatLink(source: ChatSource, untitled: string) {
    // `|` ends the URL part of a Slack link and `>` the link itself; neither may appear in the label.
    const label = escapeMrkdwn(sourceLabel(source, untitled)).replace(/\|/g, '¦');
    if (!/^https?:\/\//i.test(source.url)) return label;
    return `<${source.url.replace(/\|/g, '%7C').replace(/>/g, '%3E')}|${label}>`;
  },
};

/**
 * What the user typed, from Slack's encoded message text: the bot's (and anyone's) `<@U…>`
 * mention removed, `<#C…|name>` / `<!here>` / `<url|label>` turned back into what they showed,
 * and the three HTML entities Slack always escapes decoded — Parley should see the question,
 * not Slack's wire format.
 */
export function slackTextToPlain(text: string): string {
  return text
    .replace(/<@[A-Z0-9]+(\|[^>]*)?>/gi, ' ')
    .replace(/<#[A-Z0-9]+\|([^>]*)>/gi, '#$1')
    .replace(/<!([a-z]+)(\|[^>]*)?>/gi, '@$1')
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]+)>/gi, (_m, url: string, label: string) =>
      label === url || `mailto:${label}` === url ? label : `${label} (${url})`,
    )
    .replace(/<((?:https?|mailto):[^>]+)>/gi, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

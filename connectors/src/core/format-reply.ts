import type { ChatAnswer, ChatSource } from './parley-types.js';

/** How one platform writes a link and a heading; the layout (answer, then sources) is shared. */
export interface ReplyStyle {
  /** A heading line above the numbered sources, already in the platform's markup. */
  sourcesHeading: string;
  formatLink(source: ChatSource): string;
  /** Escapes the assistant's answer for the platform's markup (Slack needs &, <, > escaped). */
  escapeText?(text: string): string;
}

/** `1. link` lines, numbered in the order the server ranked them. */
export function formatSourceLines(sources: readonly ChatSource[], style: ReplyStyle): string[] {
  return sources.map((source, index) => `${index + 1}. ${style.formatLink(source)}`);
}

/** The answer, a blank line, then the numbered sources (when there are any). */
export function formatAnswerText(answer: Pick<ChatAnswer, 'response' | 'sources'>, style: ReplyStyle): string {
  const body = style.escapeText ? style.escapeText(answer.response) : answer.response;
  const lines = formatSourceLines(answer.sources, style);
  if (lines.length === 0) return body;
  return `${body}\n\n${style.sourcesHeading}\n${lines.join('\n')}`;
}

/** A source without a URL (an uploaded file) still deserves its title; one without a title its URL. */
export function sourceLabel(source: ChatSource): string {
  const title = source.title.trim();
  if (title !== '') return title;
  return source.url || 'Source';
}

/** Markdown as Discord embeds and Adaptive Card TextBlocks read it. */
export const markdownStyle: ReplyStyle = {
  sourcesHeading: '**Sources**',
  formatLink(source) {
    // Brackets in a title would end the link text early; Discord and Teams both honour backslash escapes.
    const label = sourceLabel(source).replace(/([[\]])/g, '\\$1');
    if (!source.url) return label;
    return `[${label}](${source.url.replace(/\)/g, '%29').replace(/ /g, '%20')})`;
  },
};

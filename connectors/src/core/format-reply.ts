import type { ChatAnswer, ChatSource } from './parley-types.js';
import { ENGLISH_TEXTS, type BotTexts } from './texts.js';

/** How one platform writes a link and a heading; the layout (answer, then sources) is shared. */
export interface ReplyStyle {
  /** The heading line above the numbered sources ("Sources" in the assistant's language), in the platform's markup. */
  sourcesHeading(label: string): string;
  /** `untitled`: the label of a source with neither title nor URL. */
  formatLink(source: ChatSource, untitled: string): string;
  /** Escapes the assistant's answer for the platform's markup (Slack needs &, <, > escaped). */
  escapeText?(text: string): string;
}

/** `1. link` lines, numbered in the order the server ranked them. */
export function formatSourceLines(sources: readonly ChatSource[], style: ReplyStyle, untitled = ENGLISH_TEXTS.source): string[] {
  return sources.map((source, index) => `${index + 1}. ${style.formatLink(source, untitled)}`);
}

/** The answer, a blank line, then the numbered sources (when there are any). */
export function formatAnswerText(
  answer: Pick<ChatAnswer, 'response' | 'sources'>,
  style: ReplyStyle,
  texts: Pick<BotTexts, 'sources' | 'source'> = ENGLISH_TEXTS,
): string {
  const body = style.escapeText ? style.escapeText(answer.response) : answer.response;
  const lines = formatSourceLines(answer.sources, style, texts.source);
  if (lines.length === 0) return body;
  return `${body}\n\n${style.sourcesHeading(texts.sources)}\n${lines.join('\n')}`;
}

/** A source without a URL (an uploaded file) still deserves its title; one without a title its URL. */
export function sourceLabel(source: ChatSource, untitled = ENGLISH_TEXTS.source): string {
  const title = source.title.trim();
  if (title !== '') return title;
  return source.url || untitled;
}

/** Markdown as Discord embeds and Adaptive Card TextBlocks read it. */
export const markdownStyle: ReplyStyle = {
  sourcesHeading: (label) => `**${label}**`,
  formatLink(source, untitled) {
    // Brackets in a title would end the link text early; Discord and Teams both honour backslash escapes.
    const label = sourceLabel(source, untitled).replace(/([[\]])/g, '\\$1');
    if (!source.url) return label;
    return `[${label}](${source.url.replace(/\)/g, '%29').replace(/ /g, '%20')})`;
  },
};

import type { VNode } from 'preact';
import { Link, Markdown, safeUrl } from '../markdown.js';
import { text, type Message, type Model } from '../model.js';
import { Icon, THUMB } from './icons.js';

function label(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

export function MessageItem({ m, model }: { m: Message; model: Model }): VNode {
  const c = model.config.value;
  const rateable = m.role === 'assistant' && !!m.id && !m.streaming && c.collectFeedback;
  return (
    <div class={`msg ${m.role}`} data-parley="message" data-role={m.role}>
      {m.role === 'human_agent' && <span class="who">{text(c, 'supportTeam')}</span>}
      {/* A visitor's own text is shown verbatim; only answers get markdown. While the first
          words are on their way the bubble is empty and CSS draws a typing indicator. A message may be
          in another language than the widget's: dir="auto" lays out each by its own first letters. */}
      <div class="bubble" dir="auto">
        {m.role === 'user' ? m.content : <Markdown text={m.content} />}
      </div>
      {m.sources.length > 0 && (
        <div class="src" aria-label={text(c, 'sources')}>
          {m.sources.map((s) => {
            const href = safeUrl(s.url);
            return href ? (
              <Link href={href} data-parley="source">
                {s.title || label(href)}
              </Link>
            ) : (
              <span data-parley="source">{s.title}</span>
            );
          })}
        </div>
      )}
      {rateable && (
        <div class="rate" role="group" aria-label={text(c, 'wasHelpful')}>
          <button
            data-parley="feedback-up"
            aria-label={text(c, 'helpful')}
            aria-pressed={m.rating === 'up'}
            onClick={() => void model.rate(m, 'up')}
          >
            <Icon d={THUMB} />
          </button>
          <button
            data-parley="feedback-down"
            aria-label={text(c, 'notHelpful')}
            aria-pressed={m.rating === 'down'}
            onClick={() => void model.rate(m, 'down')}
          >
            <Icon d={THUMB} />
          </button>
        </div>
      )}
    </div>
  );
}

import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { TextKey } from '../api.js';
import { Link, Markdown, safeUrl } from '../markdown.js';
import { text, type Model } from '../model.js';
import { CLOSE, Icon, NEW, SEND } from './icons.js';
import { MessageItem } from './message-item.js';

export function Panel({ model, onClose, autoFocus }: { model: Model; onClose: () => void; autoFocus: boolean }): VNode {
  const c = model.config.value;
  const busy = model.busy.value;
  const draft = model.draft.value;
  const err = model.error.value;
  const messages = model.messages.value;
  const last = messages[messages.length - 1];
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  // Follow new text only while the reader is at the bottom; don't yank them back up-thread.
  const stick = useRef(true);
  const avatar = safeUrl(c.avatarUrl);
  const t = (key: TextKey): string => text(c, key);

  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, []);

  useLayoutEffect(() => {
    const el = log.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });

  const submit = (): void => {
    stick.current = true;
    model.submit();
  };

  const handoff = c.handoff;
  const page = safeUrl(handoff?.url);
  const mail = handoff?.email ? safeUrl(`mailto:${handoff.email}`) : null;

  return (
    <div class="panel" role="dialog" aria-label={t('dialog')} data-parley="panel">
      <div class="head">
        {avatar ? (
          <img class="avatar" src={avatar} alt="" />
        ) : (
          <span class="avatar" aria-hidden="true">
            {c.name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div class="title">
          <b>{c.name}</b>
          <small>{t('subtitle')}</small>
        </div>
        {model.loaded.value && (
          <button
            class="icon"
            data-parley="new-conversation"
            aria-label={t('newConversation')}
            onClick={() => {
              model.newConversation();
              input.current?.focus();
            }}
          >
            <Icon d={NEW} />
          </button>
        )}
        <button class="icon" data-parley="close" aria-label={t('close')} onClick={onClose}>
          <Icon d={CLOSE} />
        </button>
      </div>

      <div
        class="log"
        ref={log}
        role="log"
        aria-live="polite"
        aria-busy={busy}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
        }}
      >
        {c.welcomeMessage && (
          <div class="msg assistant" data-parley="welcome">
            <div class="bubble" dir="auto">
              <Markdown text={c.welcomeMessage} />
            </div>
          </div>
        )}
        {messages.map((m) => (
          <MessageItem key={m.key} m={m} model={model} />
        ))}
        {model.suggestions.value.length > 0 && (
          <div class="chips" role="group" aria-label={t('suggestions')}>
            {model.suggestions.value.map((s) => (
              <button
                class="chip"
                data-parley="suggestion"
                onClick={() => {
                  stick.current = true;
                  void model.send(s);
                }}
              >
                {s}
              </button>
            ))}
          </div>
        )}
      </div>

      {err && (
        <div class="bar error" data-parley="error" role="alert">
          {/* Friendly lines only: the visitor never sees status codes, stacks or raw JSON. */}
          <span>{t(err.kind)}</span>
          {err.retry && (
            <button data-parley="retry" onClick={err.retry}>
              {t('retry')}
            </button>
          )}
        </div>
      )}
      {model.handoffActive.value ? (
        <div class="bar" data-parley="handoff-notice" role="status">
          <span>{model.notice.value || handoff?.message}</span>
          {page && <Link href={page}>{t('contactPage')}</Link>}
          {mail && <Link href={mail}>{handoff!.email}</Link>}
        </div>
      ) : (
        model.canHandoff.value && (
          <div class="bar">
            <span>{(last?.role === 'assistant' && last.handoff?.message) || t('needHelp')}</span>
            <button data-parley="handoff" onClick={() => void model.requestHandoff()}>
              {t('talkToHuman')}
            </button>
          </div>
        )
      )}

      {/* Without a config (refused origin, outage) there is nothing to send to. */}
      {model.loaded.value && (
        <form
          class="compose"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <textarea
            ref={input}
            data-parley="input"
            rows={1}
            maxLength={4000}
            aria-label={t('inputLabel')}
            placeholder={t('placeholder')}
            value={draft}
            onInput={(e) => (model.draft.value = e.currentTarget.value)}
            onKeyDown={(e) => {
              // Enter sends, Shift+Enter is a new line; never interrupt an IME composition.
              if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                e.preventDefault();
                submit();
              }
            }}
          />
          <button type="submit" class="send" data-parley="send" aria-label={t('send')} disabled={busy || !draft.trim()}>
            <Icon d={SEND} />
          </button>
        </form>
      )}
    </div>
  );
}

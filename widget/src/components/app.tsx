import type { VNode } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { safeUrl } from '../markdown.js';
import { text, type Model } from '../model.js';
import { CHAT, CLOSE, Icon } from './icons.js';
import { Panel } from './panel.js';

const CORNER: Record<string, string> = { 'bottom-left': 'bl', 'top-right': 'tr', 'top-left': 'tl' };
export function App({ model }: { model: Model }): VNode | null {
  const c = model.config.value;
  const open = model.isOpen.value;
  const launcher = useRef<HTMLButtonElement>(null);
  // Focus moves into the panel only when the visitor opened it, never on an auto-expanded load.
  const userOpened = useRef(false);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (!open && returnFocus.current) {
      returnFocus.current = false;
      launcher.current?.focus();
    }
  }, [open]);

  // Nothing until the config (or its failure) is known: no flash of a wrongly placed launcher.
  if (!model.loaded.value && !model.error.value) return null;

  const close = (): void => {
    returnFocus.current = true;
    model.close();
  };
  const icon = safeUrl(c.iconUrl);

  return (
    <div
      class={`root ${CORNER[c.position] ?? 'br'} ${c.theme}${open ? ' open' : ''}`}
      // Custom colours go in as CSS variables via setProperty, which rejects anything that is
      // not a single value; styles.css derives the rest (text on primary, borders, muted text).
      style={
        c.theme === 'custom' && c.colors ? { '--pri': c.colors.primary, '--bg': c.colors.background, '--fg': c.colors.text } : undefined
      }
      lang={c.language || undefined}
      dir={c.dir}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          close();
        }
      }}
    >
      <button
        ref={launcher}
        class="launcher"
        data-parley="launcher"
        aria-expanded={open}
        aria-label={text(c, open ? 'close' : 'open')}
        onClick={() => {
          if (open) close();
          else {
            userOpened.current = true;
            model.open();
          }
        }}
      >
        {open ? <Icon d={CLOSE} /> : icon ? <img src={icon} alt="" /> : <Icon d={CHAT} />}
      </button>
      {open && <Panel model={model} onClose={close} autoFocus={userOpened.current} />}
    </div>
  );
}

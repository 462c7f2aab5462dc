import { render } from 'preact';
import { createApi } from './api.js';
import { App } from './components/app.js';
import { createModel, type KeyValueStore } from './model.js';
import css from './styles.css?inline';

// Must be read synchronously at load: currentScript is null once we are in a callback.
// It is also null when the tag was injected as a module or by some loaders, hence the query.
const script =
  (document.currentScript as HTMLScriptElement | null) ??
  document.querySelector<HTMLScriptElement>('script[data-app-id][src*="widget.js"]');

function boot(): void {
  const appId = script?.dataset.appId;
  if (!script || !appId) {
    console.warn('[parley] data-app-id missing');
    return;
  }
  // Pasting the snippet twice (theme + tag manager, say) must not give two launchers.
  const seen = ((window as unknown as { __parley?: Set<string> }).__parley ??= new Set());
  if (seen.has(appId)) return;
  seen.add(appId);

  const api = script.dataset.apiUrl || new URL(script.src, location.href).origin;
  let storage: KeyValueStore | null = null;
  try {
    storage = window.localStorage; // throws when storage is blocked
  } catch {
    /* run without persistence */
  }
  const model = createModel({ api: createApi(api, appId), appId, storage });

  // A custom element name: page rules like `div { display: none }` never match the host.
  const host = document.createElement('parley-widget');
  host.setAttribute('data-app-id', appId);
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = css;
  const mount = document.createElement('div');
  shadow.append(style, mount);
  document.body.appendChild(host);
  render(<App model={model} />, mount);

  void model.init().then(() => {
    if (model.error.value?.kind === 'forbidden') {
      console.warn(`[parley] origin not allowed: ${location.origin}`);
    }
  });
}

if (document.body) boot();
else document.addEventListener('DOMContentLoaded', boot);

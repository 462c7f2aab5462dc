// The widget live preview (widget-preview.html, shown in an iframe by the assistant editor).
// It runs the REAL /js/widget.js for ?appId=…; the editor's unsaved widget settings arrive in
// the URL fragment (JSON) and are laid over the saved config the widget fetches, so the
// preview shows what the owner is editing before they save. Same origin as the server, so
// the widget API allows it (PUBLIC_URL's origin is always allowed).

interface PreviewSettings {
  [key: string]: unknown;
}

function readOverrides(): PreviewSettings {
  try {
    const raw = decodeURIComponent(location.hash.slice(1));
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PreviewSettings) : {};
  } catch {
    return {};
  }
}

const appId = new URLSearchParams(location.search).get('appId') ?? '';
const overrides = readOverrides();
const realFetch = window.fetch.bind(window);

// Only the config request is rewritten; chat and the rest go to the server untouched.
window.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const res = await realFetch(input, init);
  if (!/\/v1\/widget\/[^/]+\/config$/.test(new URL(url, location.href).pathname) || !res.ok) return res;
  const body = (await res.json()) as { data: Record<string, unknown> };
  // The owner's texts go over the language's ones key by key, not in place of them all.
  const strings = { ...(body.data.strings as object | undefined), ...(overrides.strings as object | undefined) };
  body.data = { ...body.data, ...overrides, strings };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
};

document.documentElement.dataset.theme = String(overrides.theme ?? 'light');
const script = document.createElement('script');
script.src = '/js/widget.js';
script.dataset.appId = appId;
script.defer = true;
document.body.appendChild(script);

// The dashboard's only way to the server: the public API under /v1, authenticated by the
// httpOnly session cookie plus the CSRF header (docs/api-spec.md §11). No token ever lives in JavaScript.

export const CSRF_HEADER = 'X-Parley-CSRF';

export type ApiErrorKind =
  'validation' | 'auth' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'rate_limited' | 'server' | 'network';

/** A failed call, with the server's own message (shown to the user as it is). */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status = 0,
    readonly code = '',
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Field messages from a validation error: "model.baseUrl: must be …; name: required". */
  get fields(): Record<string, string> {
    return this.kind === 'validation' ? parseFieldErrors(this.message) : {};
  }
}

export function parseFieldErrors(message: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of message.split(/;\s+/)) {
    const m = /^([\w.[\]-]+): (.+)$/.exec(part);
    if (m && m[1] !== 'body') out[m[1]!] ??= m[2]!;
  }
  return out;
}

const KIND_BY_STATUS: Record<number, ApiErrorKind> = {
  400: 'validation',
  401: 'auth',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  429: 'rate_limited',
};

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

/** Called on any 401: the app sends the user to sign in, keeping where they were. */
let onUnauthenticated: (() => void) | null = null;
export function setUnauthenticatedHandler(fn: (() => void) | null): void {
  onUnauthenticated = fn;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** multipart uploads: a FormData body is sent as it is. */
  form?: FormData;
  signal?: AbortSignal;
  /** Do not redirect to sign-in on 401 (the sign-in page itself, the first "who am I"). */
  quiet401?: boolean;
}

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return `/v1${path}${s ? `?${s}` : ''}`;
}

async function data<T>(res: Response): Promise<T> {
  const body = (await res.json()) as { data: T };
  return body.data;
}

/** What page models use to reach the server (passed in, so unit tests can point it at a test server). */
export interface ApiClient {
  request(method: string, path: string, opts?: RequestOptions): Promise<Response>;
  get<T>(path: string, opts?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  patch<T>(path: string, body: unknown, opts?: RequestOptions): Promise<T>;
  put<T>(path: string, body: unknown, opts?: RequestOptions): Promise<T>;
  delete<T>(path: string, opts?: RequestOptions): Promise<T>;
  upload<T>(path: string, form: FormData, opts?: RequestOptions): Promise<T>;
  page<T>(path: string, query?: RequestOptions['query'], opts?: RequestOptions): Promise<Page<T>>;
}

export interface ApiClientOptions {
  /** '' in the browser (same origin); a test server's URL in unit tests. */
  origin?: string;
  /** Extra headers, e.g. a bearer token in unit tests (the browser relies on the cookie). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const origin = options.origin ?? '';
  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { [CSRF_HEADER]: '1', Accept: 'application/json', ...options.headers };
    let body: BodyInit | undefined;
    if (opts.form) body = opts.form;
    else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    let res: Response;
    try {
      res = await (options.fetch ?? fetch)(origin + apiUrl(path, opts.query), {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: opts.signal,
      });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new ApiError('network', 'Could not reach the server. Check your connection and try again.');
    }
    if (!res.ok) {
      const payload = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
      const kind = KIND_BY_STATUS[res.status] ?? 'server';
      if (kind === 'auth' && !opts.quiet401) onUnauthenticated?.();
      throw new ApiError(kind, payload?.error?.message ?? `The server answered ${res.status}`, res.status, payload?.error?.code ?? '');
    }
    return res;
  }
  return {
    request,
    get: async (path, opts) => data(await request('GET', path, opts)),
    post: async (path, body, opts) => data(await request('POST', path, { ...opts, body })),
    patch: async (path, body, opts) => data(await request('PATCH', path, { ...opts, body })),
    put: async (path, body, opts) => data(await request('PUT', path, { ...opts, body })),
    delete: async (path, opts) => data(await request('DELETE', path, opts)),
    upload: async (path, form, opts) => data(await request('POST', path, { ...opts, form })),
    async page<T>(path: string, query: RequestOptions['query'] = {}, opts?: RequestOptions): Promise<Page<T>> {
      const res = await request('GET', path, { ...opts, query });
      const body = (await res.json()) as { data: T[]; pagination: { total: number; page: number; limit: number; pages: number } };
      return { items: body.data, ...body.pagination };
    },
  };
}

/** The browser's client: same origin, the session cookie, the CSRF header. */
export const api = createApiClient();

/** Upload with progress (fetch cannot report upload progress; XMLHttpRequest can). */
export function uploadWithProgress<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.setRequestHeader(CSRF_HEADER, '1');
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError('network', 'Could not reach the server. Check your connection and try again.'));
    xhr.onload = () => {
      const payload = xhr.response as { data?: T; error?: { code?: string; message?: string } } | null;
      if (xhr.status >= 200 && xhr.status < 300) return resolve(payload?.data as T);
      const kind = KIND_BY_STATUS[xhr.status] ?? 'server';
      if (kind === 'auth') onUnauthenticated?.();
      reject(new ApiError(kind, payload?.error?.message ?? `The server answered ${xhr.status}`, xhr.status, payload?.error?.code ?? ''));
    };
    xhr.send(form);
  });
}

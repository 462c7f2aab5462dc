/** A small HTTP client for tests: JSON in, parsed JSON (or text) out, nothing hidden. */
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export function client(baseUrl: string, defaultToken?: string) {
  async function request<T = any>(
    method: string,
    path: string,
    opts: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? defaultToken : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }
  return {
    request,
    get: <T = any>(path: string, o?: Parameters<typeof request>[2]) => request<T>('GET', path, o),
    post: <T = any>(path: string, body?: unknown, o?: Parameters<typeof request>[2]) => request<T>('POST', path, { ...o, body }),
    patch: <T = any>(path: string, body?: unknown, o?: Parameters<typeof request>[2]) => request<T>('PATCH', path, { ...o, body }),
    del: <T = any>(path: string, o?: Parameters<typeof request>[2]) => request<T>('DELETE', path, o),
  };
}

export type Client = ReturnType<typeof client>;

let counter = 0;
/** Registers a fresh account (its own organization) and returns a client acting as it. */
export async function registerAccount(baseUrl: string, name = 'Test Org') {
  counter++;
  const anon = client(baseUrl);
  const email = `owner${counter}-${Date.now()}@example.com`;
  const res = await anon.post('/v1/auth/register', { email, password: 'correct horse battery', organizationName: name });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const { token, organization, user } = res.body.data;
  return { token, organization, user, email, api: client(baseUrl, token) };
}

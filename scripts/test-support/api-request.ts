// One HTTP request to a running Portcullis, with a bearer token or a session cookie, JSON in and out.

export type ApiResponse<T = unknown> = { status: number; headers: Headers; body: T; text: string };

export type ApiErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

export async function apiRequest<T = unknown>(
  baseUrl: string,
  path: string,
  opts: {
    method?: string;
    token?: string;
    cookie?: string;
    headers?: Record<string, string>;
    /** A value is sent as JSON; a string is sent as written. */
    body?: unknown;
    timeoutMs?: number;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie !== undefined) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${baseUrl}${path}`, {
    method: opts.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* HTML pages and empty bodies stay in `text` */
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** GET /api/v1/me */
export type Me = { user: { id: string; email: string; role: string; disabled: boolean }; via: string };

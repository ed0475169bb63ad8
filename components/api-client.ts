// The console's one way to call the REST API: JSON in, JSON out, and an ApiError that carries the API's
// own code, status and message (from `{ error: { code, message, details } }`) so the UI can show it.
import type { TApiError } from "@/lib/schemas";

export type ApiErrorDetail = { path: string; message: string };

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  /** Validation details (422) as `{ path, message }` pairs; empty for other errors. */
  get fieldErrors(): ApiErrorDetail[] {
    if (!Array.isArray(this.details)) return [];
    return this.details.flatMap((d: unknown) => {
      if (typeof d !== "object" || d === null) return [];
      const { path, message } = d as { path?: unknown; message?: unknown };
      return typeof message === "string" ? [{ path: typeof path === "string" ? path : "", message }] : [];
    });
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

function errorBody(body: unknown): TApiError["error"] | undefined {
  if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
  const error = body.error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
  if (typeof message !== "string") return undefined;
  return { code: typeof code === "string" ? code : "unknown", message, details };
}

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Fetches `/api/v1…` with the session cookie; resolves to the parsed JSON body or throws ApiError. */
export async function apiFetch<T>(path: string, opts: { method?: Method; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: opts.method ?? "GET",
      headers: { accept: "application/json", ...(opts.body === undefined ? {} : { "content-type": "application/json" }) },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", "Could not reach the Portcullis server. Check your connection and try again.");
  }
  const text = await res.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  if (!res.ok) {
    const e = errorBody(body);
    if (e) throw new ApiError(res.status, e.code, e.message, e.details);
    throw new ApiError(res.status, "http_error", `The server answered HTTP ${res.status} ${res.statusText}.`.replace(" .", "."));
  }
  return body as T;
}

// Signs in through next-auth over HTTP as the browser form does: GET /api/auth/csrf for the token and
// its cookie, then POST /api/auth/callback/credentials form-encoded; the session cookie is kept.

/** The cookies a browser would keep for one origin (name → value); expiry and paths are not modelled. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = /max-age=0\b/i.test(line) || /expires=thu, 01 jan 1970/i.test(line);
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

export const SESSION_COOKIE = "next-auth.session-token";

export type SignInResult = {
  /** True when next-auth set a session cookie. */
  ok: boolean;
  status: number;
  /** Where next-auth would send the browser (`json=true` makes it answer `{ url }` instead of a redirect). */
  url: string | undefined;
  /** The `error` query parameter of that URL: CredentialsSignin, rate_limited:<s>, … */
  error: string | undefined;
  jar: CookieJar;
};

export async function signIn(baseUrl: string, email: string, password: string): Promise<SignInResult> {
  const jar = new CookieJar();
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  jar.store(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${baseUrl}/`, json: "true" }),
  });
  jar.store(res);
  const text = await res.text();
  let url = res.headers.get("location") ?? undefined;
  try {
    url = (JSON.parse(text) as { url?: string }).url ?? url;
  } catch {
    /* a redirect without a JSON body */
  }
  const error = url ? (new URL(url, baseUrl).searchParams.get("error") ?? undefined) : undefined;
  return { ok: jar.get(SESSION_COOKIE) !== undefined, status: res.status, url, error, jar };
}

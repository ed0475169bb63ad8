// Test support: an OAuthClientProvider of the MCP SDK kept in memory, and a browser's part of the
// authorization code flow over real HTTP (redirects followed by hand, cookies kept), stopping at the console's
// consent page and at the client's redirect URI.
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

export const REDIRECT_URI = "http://127.0.0.1:53682/callback";

export class MemoryOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  constructor(readonly name = "Test Agent") {}
  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [REDIRECT_URI], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A browser: follows redirects one by one, keeping cookies, until `stop` says a location is where it ends. */
export class TestBrowser {
  private readonly jar = new Map<string, string>();
  async get(url: string): Promise<Response> {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";", 1);
      const i = pair!.indexOf("=");
      this.jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    return res;
  }
  /** Follows redirects from `url` until one leaves `base` or lands on a page (non-3xx); returns that URL and the last response. */
  async follow(url: string, base: string): Promise<{ url: string; res: Response }> {
    let current = url;
    for (let hops = 0; hops < 10; hops++) {
      const res = await this.get(current);
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) return { url: current, res };
      current = new URL(location, current).href;
      if (!current.startsWith(base) || /^\/authorize\//.test(new URL(current).pathname)) return { url: current, res };
    }
    throw new Error("too many redirects");
  }
}

// The embedded authorization server through `portcullis start` itself: the MCP SDK client's OAuth flow against
// /mcp, the browser's part driven over HTTP with a signed-in console session — /oauth/* on the start server,
// the console's /authorize/{uid} page (sign-in first when signed out) and POST /api/v1/oauth/consent/{uid} —
// then a tool call inside the consent and a 403 insufficient_scope outside it. A consent posted cross-site fails.
// And mcp-remote, the stdio bridge desktop clients use, through the same flow with the test as its browser; and
// the MCP conformance suite's authorization-server scenarios (metadata, authorization code grant) against it.
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../server/db/embedded";
import { MemoryOAuthClient, REDIRECT_URI } from "../server/oauth/as/oauth-test-client";
import { everythingServer } from "../server/test/gateway-harness";
import { apiRequest } from "./test-support/api-request";
import { conformanceAuth, savedChecks } from "./test-support/conformance-auth";
import { runCli, lastLine } from "./test-support/run-cli";
import { CookieJar, signIn } from "./test-support/sign-in";
import { startApp, stopAllApps } from "./test-support/start-app";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";
import { REPO_ROOT } from "../server/test/gateway-harness";

const ADMIN = { email: "root@example.com", password: "admin-password-1" };
const ECHO = "everything__echo";
const SUM = "everything__get-sum";


let base = "";

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${String(port)}`;
  const dataDir = await makeTempDir("oauth-server");
  await startApp({ port, env: { DATA_DIR: dataDir, PUBLIC_URL: base, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PORTCULLIS_NO_DEMO: "1" } });
  const token = lastLine((await runCli(["token", "create", "--email", ADMIN.email, "--name", "setup"], { env: { DATA_DIR: dataDir } })).stdout);
  const server = await apiRequest<{ status: string }>(base, "/api/v1/servers", { token, body: everythingServer(), timeoutMs: 60_000 });
  expect(server.status, server.text).toBe(201);
}, 120_000);

afterAll(async () => {
  await stopAllApps();
  await removeTempDirs();
});

/** Follows redirects as a browser with `jar`, until a location leaves the gateway or lands on a console page. */
async function follow(jar: CookieJar, url: string): Promise<{ url: string; res: Response }> {
  let current = url;
  for (let hops = 0; hops < 10; hops++) {
    const res = await fetch(current, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.store(res);
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) return { url: current, res };
    current = new URL(location, current).href;
    if (!current.startsWith(base)) return { url: current, res };
  }
  throw new Error("too many redirects");
}

const consent = (jar: CookieJar, uid: string, body: unknown, origin = base) =>
  apiRequest<{ redirectTo: string; error?: { code: string } }>(base, `/api/v1/oauth/consent/${uid}`, { cookie: jar.header(), headers: { origin, "sec-fetch-site": origin === base ? "same-origin" : "cross-site" }, body });

/**
 * The browser's part of an authorization a client started elsewhere (mcp-remote, the conformance suite): the
 * admin, signed in, allows `tools` on the consent page; returns where the browser is sent (the client's callback).
 */
async function allowAsAdmin(authorizationUrl: string, tools: string[]): Promise<string> {
  const session = await signIn(base, ADMIN.email, ADMIN.password);
  const page = await follow(session.jar, authorizationUrl);
  const uid = /\/authorize\/([^/?]+)$/.exec(page.url)![1]!;
  const csrfToken = /csrfToken\\?":\\?"([A-Za-z0-9_-]+)/.exec(await page.res.text())![1]!;
  const allowed = await consent(session.jar, uid, { decision: "allow", tools, csrfToken });
  expect(allowed.status, allowed.text).toBe(200);
  return (await follow(session.jar, new URL(allowed.body.redirectTo, base).href)).url;
}

describe("portcullis start as the authorization server of its MCP endpoints", () => {
  it("the MCP SDK client signs in through the console, consents to two tools, calls one; a third → 403 insufficient_scope; a cross-site consent is refused", async () => {
    const client = new MemoryOAuthClient("Desk Agent");
    expect(await auth(client, { serverUrl: `${base}/mcp` })).toBe("REDIRECT");

    // Signed out, the consent page sends the browser to sign in, and back.
    const signedOut = await follow(new CookieJar(), client.authorizationUrl!.href);
    const signInPage = new URL(signedOut.url);
    expect(signInPage.pathname).toBe("/signin");
    expect(signInPage.searchParams.get("callbackUrl")).toMatch(/^\/authorize\/[^/]+$/);

    // Signed in: the same authorization request from the start, in a browser with the console session.
    const session = await signIn(base, ADMIN.email, ADMIN.password);
    expect(session.ok).toBe(true);
    const jar = session.jar;
    const page = await follow(jar, client.authorizationUrl!.href);
    expect(page.res.status).toBe(200);
    const pageUid = /\/authorize\/([^/?]+)$/.exec(page.url)![1]!;
    const html = await page.res.text();
    expect(html).toContain("Desk Agent");
    expect(html).toContain("127.0.0.1:53682");
    const csrfToken = /csrfToken\\?":\\?"([A-Za-z0-9_-]+)/.exec(html)![1]!;

    const forged = await consent(jar, pageUid, { decision: "allow", tools: [ECHO, SUM], csrfToken }, "https://evil.example");
    expect(forged.status).toBe(403);
    expect(forged.body.error?.code).toBe("consent_forged");

    const allowed = await consent(jar, pageUid, { decision: "allow", tools: [ECHO, SUM], csrfToken });
    expect(allowed.status, allowed.text).toBe(200);
    const back = new URL((await follow(jar, new URL(allowed.body.redirectTo, base).href)).url);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get("iss")).toBe(base);
    expect(await auth(client, { serverUrl: `${base}/mcp`, authorizationCode: back.searchParams.get("code")! })).toBe("AUTHORIZED");

    const mcp = new Client({ name: "desk-agent", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), { authProvider: client });
    await mcp.connect(transport);
    try {
      const result = (await mcp.callTool({ name: ECHO, arguments: { message: "via oauth" } })) as { content: { text?: string }[] };
      expect(result.content[0]?.text).toContain("via oauth");
      const third = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${client.saved!.access_token}`, "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "everything__get-tiny-image", arguments: {} } }),
      });
      expect(third.status).toBe(403);
      expect(third.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="mcp"');
    } finally {
      await mcp.close();
    }
  }, 60_000);

  it("mcp-remote (the stdio bridge of desktop clients) signs in headless through the console and calls a tool", async () => {
    const port = await freePort();
    const bridge = spawn(process.execPath, [`${REPO_ROOT}/node_modules/mcp-remote/dist/proxy.js`, `${base}/mcp`, String(port), "--allow-http", "--host", "127.0.0.1"], {
      // No browser here: the test is the browser. BROWSER=true makes the opener succeed without opening one.
      env: { ...process.env, MCP_REMOTE_CONFIG_DIR: await makeTempDir("mcp-remote"), BROWSER: "true", DISPLAY: "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    try {
      let stderr = "";
      const authorizationUrl = await new Promise<string>((resolve, reject) => {
        bridge.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
          const m = /Please authorize this client by visiting:\s*(\S+)/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        bridge.once("exit", (code) => reject(new Error(`mcp-remote exited (${String(code)}) before asking to authorize:\n${stderr}`)));
      });
      const callback = await allowAsAdmin(authorizationUrl, [ECHO]);
      expect(callback).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${String(port)}/oauth/callback\\?code=`));
      // The bridge's own callback listener takes the code and finishes the token exchange.
      expect((await fetch(callback)).status).toBe(200);

      const lines = createInterface({ input: bridge.stdout });
      const answers = new Map<number, (v: unknown) => void>();
      lines.on("line", (line) => {
        const msg = JSON.parse(line) as { id?: number };
        if (typeof msg.id === "number") answers.get(msg.id)?.(msg);
      });
      const rpc = (id: number, method: string, params: unknown) =>
        new Promise<{ result?: { content?: { text?: string }[] }; error?: unknown }>((resolve) => {
          answers.set(id, resolve as (v: unknown) => void);
          bridge.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
        });
      const init = await rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "desktop", version: "1" } });
      expect(init.error).toBeUndefined();
      bridge.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      const call = await rpc(2, "tools/call", { name: ECHO, arguments: { message: "through mcp-remote" } });
      expect(call.result?.content?.[0]?.text).toContain("through mcp-remote");
    } finally {
      const exited = bridge.exitCode !== null || bridge.signalCode !== null ? Promise.resolve() : new Promise((resolve) => bridge.once("exit", resolve));
      bridge.kill("SIGTERM");
      await exited;
    }
  }, 60_000);

  it("the MCP conformance suite's authorization-server scenarios pass against it: metadata, and the authorization code grant with PKCE and a resource", async () => {
    const { node, cli } = conformanceAuth();
    const out = await makeTempDir("conformance-auth");
    const port = await freePort();
    const run = (args: string[], onStdout?: (text: string) => void) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(node, [cli, "authorization", "--url", base, "-o", out, ...args], { stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          stdout += chunk;
          onStdout?.(stdout);
        });
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
        child.once("exit", (code) => resolve({ code, stdout }));
      });
    const checksOf = async (scenario: string) => {
      const folder = (await readdir(out)).find((f) => f.startsWith(`authorization-server-${scenario}-`));
      return folder ? savedChecks(out, folder) : [];
    };

    // The suite's client: registered for its callback listener, as a client using dynamic registration would be.
    const registered = await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "MCP conformance", redirect_uris: [`http://127.0.0.1:${String(port)}/callback`], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };

    // The suite prints the authorization URL and waits on its callback; the test is the signed-in browser.
    let browsed: Promise<void> | undefined;
    const browse = async (authorizationUrl: string) => {
      const callback = await allowAsAdmin(authorizationUrl, [ECHO]);
      expect(callback).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${String(port)}/callback\\?`));
      await fetch(callback);
    };
    // Every scenario, in the suite's order: the code grant reads the metadata the first scenario fetched.
    const all = await run(["--client-id", clientId, "--resource", `${base}/mcp`, "-p", String(port)], (stdout) => {
      const m = /(http:\/\/\S+\/oauth\/authorize\?\S+)/.exec(stdout);
      if (m && !browsed) browsed = browse(m[1]!);
    });
    await browsed;
    expect(all.code, `${all.stdout}\n${JSON.stringify(await checksOf("authorization-code-grant"))}`).toBe(0);
    const metadataChecks = await checksOf("authorization-server-metadata-endpoint");
    expect(metadataChecks.map((c) => `${c.id} ${c.status}`)).toEqual(["authorization-server-metadata SUCCESS", "authorization-server-metadata-cimd SUCCESS"]);
    const grantChecks = await checksOf("authorization-code-grant");
    expect(grantChecks.map((c) => `${c.id} ${c.status}`), JSON.stringify(grantChecks)).toEqual(["authorization-code-grant SUCCESS"]);
  }, 120_000);
});

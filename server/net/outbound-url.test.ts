// The outbound-URL guard: every spelling of a loopback, private, link-local, metadata or otherwise special address
// is refused, by classification alone (no test sends to anything but loopback), and a send goes to the address
// that was checked.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forbiddenRange, getOutbound, logRefusedAtStart, normalizeAllowedHost, NO_OUTBOUND_EXCEPTIONS, OutboundUrlError, postOutbound, resolveOutbound, type Resolver } from "./outbound-url";

const noDns: Resolver = (host) => Promise.reject(Object.assign(new Error(`no DNS in this test (${host})`), { code: "ENOTFOUND" }));
const answers =
  (...addresses: string[]): Resolver =>
  () =>
    Promise.resolve(addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));

async function refusal(url: string, resolve: Resolver = noDns, allowedHosts: string[] = []): Promise<OutboundUrlError> {
  const err = await resolveOutbound(url, { allowedHosts }, resolve).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof OutboundUrlError)) throw new Error(`expected ${url} to be refused, got ${String(err)}`);
  return err;
}

describe("forbiddenRange", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrierGradeNat"],
    ["169.254.169.254", "linkLocal"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:169.254.169.254", "linkLocal"],
    ["::ffff:a9fe:a9fe", "linkLocal"],
    ["64:ff9b::a9fe:a9fe", "rfc6052 linkLocal"],
    ["2002:7f00:1::", "6to4 loopback"],
    ["::7f00:1", "ipv4Compatible loopback"],
  ])("%s is %s", (address, range) => {
    expect(forbiddenRange(address)).toBe(range);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])("%s is public", (address) => {
    expect(forbiddenRange(address)).toBeNull();
  });
});

describe("resolveOutbound", () => {
  it.each([
    ["http://127.0.0.1/hook", "127.0.0.1"],
    ["http://localhost:8080/hook", "localhost"],
    ["http://api.localhost/hook", "api.localhost"],
    ["http://LOCALHOST./hook", "localhost"],
    ["http://[::1]/hook", "::1"],
    ["http://[::ffff:127.0.0.1]/hook", "::ffff:7f00:1"],
    ["http://2130706433/hook", "127.0.0.1"],
    ["http://0177.0.0.1/hook", "127.0.0.1"],
    ["http://0x7f.1/hook", "127.0.0.1"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["http://[fd00:ec2::254]/", "fd00:ec2::254"],
    ["https://10.0.0.5/hook", "10.0.0.5"],
    ["http://100.100.100.200/", "100.100.100.200"],
    ["http://0.0.0.0:3000/", "0.0.0.0"],
  ])("refuses %s (host %s) by its address alone", async (url, host) => {
    const err = await refusal(url);
    expect(err).toMatchObject({ code: "outbound_url_refused", reason: "forbidden_address" });
    expect(err.message).toContain(host);
    expect(err.message).toContain("OUTBOUND_ALLOWED_HOSTS");
  });

  it("refuses a name when any address it resolves to is private", async () => {
    expect(await refusal("https://hooks.example.com/x", answers("10.0.0.7"))).toMatchObject({ reason: "forbidden_address", message: expect.stringContaining("hooks.example.com (10.0.0.7)") as unknown });
    expect(await refusal("https://hooks.example.com/x", answers("93.184.216.34", "169.254.169.254"))).toMatchObject({ reason: "forbidden_address" });
  });

  it("refuses other schemes, non-URLs and names that do not resolve, each with its reason", async () => {
    expect(await refusal("ftp://hooks.example.com/x")).toMatchObject({ reason: "invalid_url" });
    expect(await refusal("file:///etc/passwd")).toMatchObject({ reason: "invalid_url" });
    expect(await refusal("not a url")).toMatchObject({ reason: "invalid_url" });
    expect(await refusal("https://nowhere.invalid/x")).toMatchObject({ reason: "unresolvable" });
    expect(await refusal("https://empty.example.com/x", answers())).toMatchObject({ reason: "unresolvable" });
  });

  it("lets an allowed host through, in any spelling of it, and nothing else", async () => {
    const policy = { allowedHosts: ["127.0.0.1", "[::1]", "Hooks.Internal."].map(normalizeAllowedHost) };
    expect(policy.allowedHosts).toEqual(["127.0.0.1", "::1", "hooks.internal"]);
    expect(await resolveOutbound("http://2130706433:9/x", policy, noDns)).toMatchObject({ address: "127.0.0.1", family: 4 });
    expect(await resolveOutbound("http://[0:0::1]:9/x", policy, noDns)).toMatchObject({ address: "::1", family: 6 });
    expect(await resolveOutbound("http://hooks.internal/x", policy, answers("10.0.0.9"))).toMatchObject({ address: "10.0.0.9" });
    expect(await refusal("http://127.0.0.2/x", noDns, policy.allowedHosts)).toMatchObject({ reason: "forbidden_address" });
    expect(await refusal("http://localhost/x", noDns, policy.allowedHosts)).toMatchObject({ reason: "forbidden_address" });
  });

  it("accepts a public address", async () => {
    expect(await resolveOutbound("https://hooks.example.com/x", NO_OUTBOUND_EXCEPTIONS, answers("93.184.216.34"))).toMatchObject({ host: "hooks.example.com", address: "93.184.216.34" });
  });
});

describe("postOutbound", () => {
  const seen: { host: string | undefined; body: string }[] = [];
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push({ host: req.headers.host, body });
        if (req.url === "/redirect") res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
        else res.writeHead(204).end("not read");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("resolves the name once and connects to exactly the address it checked (a second DNS answer is never asked for)", async () => {
    let lookups = 0;
    const rebinding: Resolver = () => (++lookups === 1 ? answers("127.0.0.1")("") : Promise.reject(new Error("asked DNS twice")));
    seen.length = 0;
    const res = await postOutbound(`http://rebind.test:${String(port)}/hook`, { body: "{}", headers: {}, timeoutMs: 5000 }, { allowedHosts: ["rebind.test"] }, rebinding);
    expect(res).toEqual({ status: 204, location: null });
    expect(lookups).toBe(1);
    expect(seen).toEqual([{ host: `rebind.test:${String(port)}`, body: "{}" }]);
  });

  it("hands back a redirect to a private address without following it", async () => {
    seen.length = 0;
    const res = await postOutbound(`http://127.0.0.1:${String(port)}/redirect`, { body: "{}", headers: {}, timeoutMs: 5000 }, { allowedHosts: ["127.0.0.1"] });
    expect(res).toEqual({ status: 302, location: "http://169.254.169.254/latest/meta-data/" });
    expect(seen).toHaveLength(1);
  });

  it("counts resolving against the timeout: a resolver that never answers is a TimeoutError", async () => {
    const never: Resolver = () => new Promise(() => undefined);
    await expect(postOutbound("https://slow-dns.example.com/hook", { body: "{}", headers: {}, timeoutMs: 50 }, NO_OUTBOUND_EXCEPTIONS, never)).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("sends nothing to a loopback receiver that no admin allowed", async () => {
    seen.length = 0;
    await expect(postOutbound(`http://127.0.0.1:${String(port)}/hook`, { body: "{}", headers: {}, timeoutMs: 5000 }, NO_OUTBOUND_EXCEPTIONS)).rejects.toMatchObject({
      code: "outbound_url_refused",
      reason: "forbidden_address",
    });
    await expect(postOutbound(`http://localhost:${String(port)}/hook`, { body: "{}", headers: {}, timeoutMs: 5000 }, NO_OUTBOUND_EXCEPTIONS)).rejects.toBeInstanceOf(OutboundUrlError);
    expect(seen).toEqual([]);
  });
});

describe("getOutbound", () => {
  let server: http.Server;
  let port = 0;
  const seen: (string | undefined)[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers.host);
      if (req.url === "/redirect") res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      else res.writeHead(200, { "content-type": "application/json", "x-two": ["a", "b"] }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("connects to the one address it checked and hands back the body unread, as a Response", async () => {
    let lookups = 0;
    const rebinding: Resolver = () => (++lookups === 1 ? answers("127.0.0.1")("") : Promise.reject(new Error("asked DNS twice")));
    seen.length = 0;
    const res = await getOutbound(`http://rebind.test:${String(port)}/doc`, { headers: {}, signal: AbortSignal.timeout(5000) }, { allowedHosts: ["rebind.test"] }, rebinding);
    expect([res.status, res.headers.get("content-type"), res.headers.get("x-two"), await res.text()]).toEqual([200, "application/json", "a, b", '{"ok":true}']);
    expect(lookups).toBe(1);
    expect(seen).toEqual([`rebind.test:${String(port)}`]);
  });

  it("hands back a redirect without following it", async () => {
    seen.length = 0;
    const res = await getOutbound(`http://127.0.0.1:${String(port)}/redirect`, { headers: {}, signal: AbortSignal.timeout(5000) }, { allowedHosts: ["127.0.0.1"] });
    expect([res.status, res.headers.get("location")]).toEqual([302, "http://169.254.169.254/latest/meta-data/"]);
    expect(seen).toHaveLength(1);
  });

  it("sends nothing to a loopback address no admin allowed", async () => {
    seen.length = 0;
    await expect(getOutbound(`http://127.0.0.1:${String(port)}/doc`, { headers: {}, signal: AbortSignal.timeout(5000) }, NO_OUTBOUND_EXCEPTIONS)).rejects.toMatchObject({ code: "outbound_url_refused", reason: "forbidden_address" });
    expect(seen).toEqual([]);
  });
});

describe("logRefusedAtStart", () => {
  it("logs an error naming the setting when a configured host name resolves to a private address, and nothing otherwise", async () => {
    const lines: { obj: unknown; msg: string }[] = [];
    const logger = { error: (obj: unknown, msg: string) => void lines.push({ obj, msg }) } as Parameters<typeof logRefusedAtStart>[3];
    await logRefusedAtStart("APPROVAL_WEBHOOK_URL", "https://chat.internal/hook", NO_OUTBOUND_EXCEPTIONS, logger, answers("10.20.0.5"));
    await logRefusedAtStart("APPROVAL_WEBHOOK_URL", "https://chat.example.com/hook", NO_OUTBOUND_EXCEPTIONS, logger, answers("93.184.216.34"));
    expect(lines).toEqual([
      {
        obj: { setting: "APPROVAL_WEBHOOK_URL", code: "outbound_url_refused", reason: "forbidden_address" },
        msg: expect.stringMatching(/^APPROVAL_WEBHOOK_URL will not be sent to: chat\.internal \(10\.20\.0\.5\) is a private address/) as unknown,
      },
    ]);
  });
});

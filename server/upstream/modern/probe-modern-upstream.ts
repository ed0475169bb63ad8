// Which generation an HTTP upstream speaks: a `server/discover` (2026-07-28) that answers with a result listing
// 2026-07-28 means the stateless generation; anything else (an HTTP error, a JSON-RPC error, no such version,
// no answer at all) leaves the upstream to the 2025 handshake (`initialize`), as before this probe existed.
import { answerMessages, ENVELOPE, MODERN_VERSION, routingHeaders, withEnvelope, type Envelope } from "./modern-wire";

export type Discovered = {
  capabilities: Record<string, unknown>;
  serverInfo: { name: string; version: string; title?: string };
  instructions?: string | undefined;
};

export type ProbeTarget = { url: URL; fetch: typeof fetch; headers: Record<string, string>; envelope: Envelope };

export async function probeModernUpstream(target: ProbeTarget, signal: AbortSignal): Promise<Discovered | null> {
  const params = withEnvelope({}, target.envelope);
  let res: Response;
  try {
    res = await target.fetch(target.url, {
      method: "POST",
      headers: { ...target.headers, ...routingHeaders("server/discover", params) },
      body: JSON.stringify({ jsonrpc: "2.0", id: "portcullis-discover", method: "server/discover", params }),
      signal,
    });
  } catch (err) {
    // Ended by the connect's own bound or abort: the caller reports that, not a fall back to 2025.
    if (signal.aborted) throw err;
    return null;
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  try {
    for await (const m of answerMessages(res)) {
      if (m.id === undefined) continue;
      return discovered(m.result);
    }
  } catch {
    return null;
  }
  return null;
}

function discovered(result: unknown): Discovered | null {
  const r = result as { supportedVersions?: unknown; capabilities?: unknown; instructions?: unknown; _meta?: Record<string, unknown> } | undefined;
  if (!r || !Array.isArray(r.supportedVersions) || !r.supportedVersions.includes(MODERN_VERSION)) return null;
  const info = r._meta?.[ENVELOPE.serverInfo] as { name?: unknown; version?: unknown; title?: unknown } | undefined;
  return {
    capabilities: typeof r.capabilities === "object" && r.capabilities !== null ? (r.capabilities as Record<string, unknown>) : {},
    serverInfo: {
      name: typeof info?.name === "string" ? info.name : "unknown",
      version: typeof info?.version === "string" ? info.version : "0.0.0",
      ...(typeof info?.title === "string" && { title: info.title }),
    },
    ...(typeof r.instructions === "string" && { instructions: r.instructions }),
  };
}

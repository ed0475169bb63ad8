// `requestState` as it leaves Portcullis (MRTR): an opaque token naming a held continuation and the gateway
// process holding it, signed with a key every process of the deployment shares (derived from its secrets key,
// so a retry may reach any of them) and bound to the agent session, endpoint, method, name and arguments of the
// request it continues. Nothing in it is trusted before the signature and the binding are checked; the
// continuation it names can be taken once (a replay finds nothing).
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

export type StateBinding = { agentSessionId: string; endpoint: string; method: string; name: string; arguments: unknown };
/** `h`: the process holding the continuation; `u`: an upstream's own requestState carried inside (base64url), `r`: its round (upstream-state.ts). */
type Payload = { c: string; h: string; b: string; x: number; u?: string; r?: number };
export type Carried = { upstream?: string | undefined; round: number };

/**
 * The requestState signing key, derived from the deployment's secrets key (SECRETS_KEY or DATA_DIR/secrets.key,
 * which every process sharing the database must hold anyway): the same in every process, stored nowhere, and
 * useless for anything else (a separate HKDF label).
 */
export function requestStateKey(secretsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", secretsKey, Buffer.alloc(0), "portcullis/mrtr/requestState/v1", 32));
}

const digest = (b: StateBinding) => createHash("sha256").update(JSON.stringify([b.agentSessionId, b.endpoint, b.method, b.name, b.arguments ?? null])).digest("base64url");

export function createRequestStates(key: Buffer = randomBytes(32), maxChars = 2048) {
  const sign = (payload: string) => createHmac("sha256", key).update(payload).digest();
  return {
    /** `holder`: the process holding the continuation (a retry elsewhere is forwarded there); `carried`: see Payload. */
    issue(continuationId: string, holder: string, binding: StateBinding, expiresAt: number, carried?: Carried): string {
      const inner = carried && { r: carried.round, ...(carried.upstream !== undefined && { u: Buffer.from(carried.upstream, "utf8").toString("base64url") }) };
      const payload = Buffer.from(JSON.stringify({ c: continuationId, h: holder, b: digest(binding), x: expiresAt, ...inner } satisfies Payload)).toString("base64url");
      return `${payload}.${sign(payload).toString("base64url")}`;
    },
    /** The continuation id and its holder (and what it carries), or why the state is refused. */
    open(token: unknown, binding: StateBinding, now: number): ({ id: string; holder: string } & Partial<Carried>) | { refused: string } {
      if (typeof token !== "string" || token.length > maxChars) return { refused: "requestState is not one this gateway issued" };
      const [payload, signature, extra] = token.split(".");
      if (!payload || !signature || extra !== undefined) return { refused: "requestState is not one this gateway issued" };
      const given = Buffer.from(signature, "base64url");
      const expected = sign(payload);
      // Base64url decoding ignores the last character's spare bits, so several strings decode to one signature: only
      // the canonical one (as issued) is accepted, so a state has exactly one spelling.
      if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString("base64url") !== signature) return { refused: "requestState failed its integrity check" };
      const p = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Payload;
      if (p.b !== digest(binding)) return { refused: "requestState belongs to another request or agent session" };
      if (p.x <= now) return { refused: "requestState has expired" };
      return { id: p.c, holder: p.h, ...(p.r !== undefined && { round: p.r }), ...(p.u !== undefined && { upstream: Buffer.from(p.u, "base64url").toString("utf8") }) };
    },
  };
}

export type RequestStates = ReturnType<typeof createRequestStates>;

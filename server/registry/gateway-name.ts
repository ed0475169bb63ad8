// Gateway tool names: `<server-slug>__<tool>`. A slug cannot contain `_`, so the first `__` always ends it.
// Matching is exact ASCII: `GitHub__x` or a Cyrillic look-alike never resolves to `github__x`.
import { z } from "zod";
import { GatewayError } from "../errors";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
// The MCP spec's tool-name alphabet (SEP-986); anything else could not be routed back unambiguously.
const TOOL = /^[A-Za-z0-9_.-]{1,128}$/;
const SEPARATOR = "__";

export const ZServerSlug = z
  .string()
  .regex(
    SLUG,
    "must be 1–63 characters of lower-case letters a–z, digits and hyphens, starting with a letter or digit (e.g. `github` or `orders-db`)",
  );

export function toGatewayName(slug: string, tool: string): string {
  if (!SLUG.test(slug)) throw new GatewayError("validation_failed", `"${slug}" is not a valid server slug.`, { slug });
  if (!TOOL.test(tool)) {
    throw new GatewayError(
      "validation_failed",
      `The tool name "${tool}" is not 1–128 characters of A–Z, a–z, 0–9, "_", "-" and ".".`,
      { tool },
    );
  }
  return `${slug}${SEPARATOR}${tool}`;
}

export function parseGatewayName(name: string): { slug: string; tool: string } | null {
  const at = name.indexOf(SEPARATOR);
  if (at < 0) return null;
  const slug = name.slice(0, at);
  const tool = name.slice(at + SEPARATOR.length);
  return SLUG.test(slug) && TOOL.test(tool) ? { slug, tool } : null;
}

/** The longest name a tools/call can carry: a 63-character slug, "__" and a 128-character tool name. */
export const MAX_GATEWAY_NAME_CHARS = 63 + SEPARATOR.length + 128;
const NAME_ALPHABET = /^[A-Za-z0-9_.-]*$/;

/**
 * Why `name` cannot name any tool, or null: empty, longer than `maxChars`, or holding a character outside the
 * MCP tool-name alphabet (control characters, NUL, spaces, look-alikes). Checked before a name is looked up,
 * counted, logged or stored as it is.
 */
export function invalidToolNameReason(name: string, maxChars = MAX_GATEWAY_NAME_CHARS): string | null {
  if (name === "") return "is empty";
  if (name.length > maxChars) return `is ${String(name.length)} characters long; a tool name has at most ${String(maxChars)}`;
  const bad = [...name].find((ch) => !NAME_ALPHABET.test(ch));
  if (bad === undefined) return null;
  const code = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  return `contains ${code}; tool names are made of A–Z, a–z, 0–9, "_", "-" and "."`;
}

/** `name` as a message, a log line or an audit row can hold it: printable ASCII, anything else \u-escaped, cut. */
export function printableToolName(name: string): string {
  const cut = name.length > MAX_GATEWAY_NAME_CHARS ? `${name.slice(0, MAX_GATEWAY_NAME_CHARS)}…` : name;
  return cut.replace(/[^\x20-\x7e…]/gu, (ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

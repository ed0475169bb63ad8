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

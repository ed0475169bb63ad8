// Semantic versions for upstream definitions, so an admin sees at a glance whether agents may break.
import { GatewayError } from "../errors";
import type { DefinitionsDiff } from "./diff-definitions";

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export const FIRST_VERSION = "1.0.0";

/** Breaking → major; something added → minor; other changes → patch; nothing → `prev` unchanged. */
export function nextVersion(prev: string | null, diff: DefinitionsDiff): string {
  if (prev === null) return FIRST_VERSION;
  const match = SEMVER.exec(prev);
  const [major, minor, patch] = (match?.slice(1) ?? []).map(Number);
  if (
    major === undefined ||
    minor === undefined ||
    patch === undefined ||
    ![major, minor, patch].every(Number.isSafeInteger)
  ) {
    // A stored version is written only by this function; anything else is corrupt data, not an outcome.
    throw new GatewayError("internal", `The stored version ${JSON.stringify(prev)} is not x.y.z.`, { prev });
  }
  if (diff.empty) return prev;
  if (diff.breaking) return `${major + 1}.0.0`;
  const sections = [diff.tools, diff.resources, diff.resourceTemplates, diff.prompts];
  if (sections.some((section) => section.added.length > 0)) return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

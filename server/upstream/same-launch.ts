// Whether two launches are the same launch: compared in canonical JSON, because a launch read back from
// jsonb has its keys reordered and is still the same launch.
import { canonicalJson } from "../registry/content-hash";
import type { UpstreamLaunch } from "./upstream-client";

export function sameLaunch(a: UpstreamLaunch, b: UpstreamLaunch): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

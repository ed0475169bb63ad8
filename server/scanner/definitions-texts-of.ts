// All texts of a server's definitions, in one list for the rules.
import type { UpstreamDefinitions } from "../registry/definitions";
import { promptTexts, resourceTexts, toolTexts } from "./definition-texts";
import type { ScanText } from "./scan-types";

export function definitionTextsOf(defs: UpstreamDefinitions): ScanText[] {
  return [
    ...(defs.instructions ? [{ where: "server.instructions", kind: "text" as const, text: defs.instructions }] : []),
    ...defs.tools.flatMap(toolTexts),
    ...defs.prompts.flatMap(promptTexts),
    ...defs.resources.flatMap((r) => resourceTexts("resource", r)),
    ...defs.resourceTemplates.flatMap((r) => resourceTexts("resourceTemplate", r)),
  ];
}

// Arguments are checked against the tool's own inputSchema before anything reaches the upstream.
// JSON Schema 2020-12 is the MCP default dialect; a `$schema` of draft-07 (or 2019-09) selects that one.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { unstorablePath } from "../db/storable";
import { toolError } from "./tool-error";
import type { Middleware, ResolvedTool } from "./types";

// addUsedSchema: false – a compiled schema is not registered under its $id: two tools (or the strict and
// lax variants of one, or a canary's changed schema) may share an $id, which ajv would refuse to compile.
const options = { allErrors: true, strict: false, validateFormats: true, addUsedSchema: false } as const;
function withFormats<T extends Ajv>(ajv: T): T {
  addFormats(ajv);
  return ajv;
}
const engines = {
  draft7: withFormats(new Ajv(options)),
  draft2019: withFormats(new Ajv2019(options)),
  draft2020: withFormats(new Ajv2020(options)),
};

function engineFor(schema: Record<string, unknown>) {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  if (dialect.includes("draft-07") || dialect.includes("draft-06") || dialect.includes("draft-04")) return engines.draft7;
  if (dialect.includes("2019-09")) return engines.draft2019;
  return engines.draft2020;
}

const cache = new Map<string, ValidateFunction | Error>();
const MAX_CACHE = 5000;

/** Compiles (once per distinct schema) the validator for a tool; strict tools reject unknown arguments. */
export function validatorFor(tool: Pick<ResolvedTool, "inputSchema" | "strict">): ValidateFunction | Error {
  const schema = tool.strict ? { ...tool.inputSchema, additionalProperties: false } : tool.inputSchema;
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  let v: ValidateFunction | Error;
  try {
    v = engineFor(schema).compile(schema);
  } catch (err) {
    v = new Error(`the tool's inputSchema does not compile: ${(err as Error).message}`);
  }
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(key, v);
  return v;
}

function describe(e: ErrorObject): string {
  const at = e.instancePath || "(arguments)";
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return `${at} is missing required property \`${String(p.missingProperty)}\``;
    case "additionalProperties":
      return `${at} has unknown property \`${String(p.additionalProperty)}\` (not allowed)`;
    case "enum":
      return `${at} must be one of: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "type":
      return `${at} must be ${String(p.type)}`;
    default:
      return `${at} ${e.message ?? "is invalid"}`;
  }
}

/** Human- and model-readable errors: each names the path and the rule. */
export function formatValidationErrors(errors: ErrorObject[]): { path: string; rule: string; message: string }[] {
  return errors.slice(0, 20).map((e) => ({ path: e.instancePath || "/", rule: e.keyword, message: describe(e) }));
}

export function validateArguments(): Middleware {
  return (next) => async (call, ctx, notes) => {
    // Text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate, which has no UTF-8 form to send either) is
    // refused here: a held call, a task and its audit event must keep the arguments exactly as they ran.
    const unstorable = unstorablePath(call.arguments);
    if (unstorable) {
      notes.decision = "deny";
      notes.errorCode = "invalid_arguments";
      notes.reason = `${unstorable} contains a NUL character or a lone UTF-16 surrogate`;
      return toolError("invalid_arguments", `Invalid arguments for ${call.tool.gatewayName}: ${notes.reason}, which cannot be sent or stored. Remove it and call again.`, {
        problems: [{ path: unstorable, rule: "storable_text", message: notes.reason }],
      });
    }
    const validate = validatorFor(call.tool);
    if (validate instanceof Error) {
      notes.errorCode = "invalid_arguments";
      return toolError("invalid_arguments", `${call.tool.gatewayName}: ${validate.message}. Ask an admin to fix the tool definition.`);
    }
    if (!validate(call.arguments)) {
      const problems = formatValidationErrors(validate.errors ?? []);
      notes.decision = "deny";
      notes.errorCode = "invalid_arguments";
      notes.reason = problems.map((p) => p.message).join("; ");
      return toolError(
        "invalid_arguments",
        `Invalid arguments for ${call.tool.gatewayName}: ${notes.reason}. Fix the arguments and call again.`,
        { problems },
      );
    }
    return next(call, ctx, notes);
  };
}

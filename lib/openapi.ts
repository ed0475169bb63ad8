// Builds the OpenAPI 3.1 document from lib/api-contract.ts and the zod schemas (JSON Schema 2020-12).
import { z } from "zod";
import { OPERATIONS } from "./api-contract";
import { ZApiError } from "./schemas";

const REF = (id: string) => `#/components/schemas/${id}`;

function schemaRef(schema: z.ZodType, io: "input" | "output") {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: REF(id) };
  return z.toJSONSchema(schema, { io, unrepresentable: "any" });
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request: unreadable JSON (invalid_json)",
  401: "Not authenticated (unauthenticated, invalid_token)",
  403: "The caller's role is not enough (forbidden)",
  404: "Not found (not_found)",
  409: "Conflict with the current state (conflict)",
  422: "Input does not match the schema (validation_failed)",
  429: "Too many requests (rate_limited)",
  503: "The database is down",
};

export function buildOpenApi(version: string) {
  const schemas = z.toJSONSchema(z.globalRegistry, { uri: REF, unrepresentable: "any", io: "input" }).schemas as Record<string, unknown>;
  // Output-side schemas (with defaults applied) under the same ids where they differ is overkill here;
  // request and response shapes share ids and are documented as written.
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const params = [
      ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } })),
      ...Object.entries(op.query ?? {}).map(([name, q]) => ({ name, in: "query", required: false, description: q.description, schema: { type: q.type } })),
    ];
    const ok = schemaRef(op.response.schema, "output");
    const responses: Record<string, unknown> = {
      [op.response.status]: {
        description: op.response.description ?? "Success",
        // OpenAPI 3.1 cannot describe one item of a streamed body (3.2's itemSchema can): the body is text, and
        // x-item-schema names the schema of each item (an SSE event's data, a CSV row).
        content: op.response.contentType ? { [op.response.contentType]: { schema: { type: "string" }, "x-item-schema": ok } } : { "application/json": { schema: ok } },
      },
    };
    for (const s of op.errors) {
      responses[s] = { description: STATUS_TEXT[s] ?? "Error", content: { "application/json": { schema: { $ref: REF("Error") } } } };
    }
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      ...(op.role ? { security: [{ bearer: [] }, { session: [] }], "x-required-role": op.role } : { security: [] }),
      ...(params.length ? { parameters: params } : {}),
      ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: schemaRef(op.body, "input") } } } } : {}),
      responses,
    };
  }
  void ZApiError; // registered in the global registry as "Error"
  return {
    openapi: "3.1.0",
    info: { title: "Portcullis API", version, description: "REST API of the Portcullis MCP gateway. Errors are `{ error: { code, message } }`." },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Personal API token (pct_…), from `portcullis token create` or Settings" },
        session: { type: "apiKey", in: "cookie", name: "next-auth.session-token" },
      },
    },
  };
}

import { describe, expect, it } from "vitest";
import { OPERATIONS } from "./api-contract";
import { buildOpenApi } from "./openapi";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function collectRefs(node: unknown, at: string, out: { at: string; ref: string }[] = []) {
  if (Array.isArray(node)) node.forEach((v, i) => collectRefs(v, `${at}/${i}`, out));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push({ at, ref: v });
      else collectRefs(v, `${at}/${k}`, out);
    }
  }
  return out;
}

describe("buildOpenApi", () => {
  const doc = buildOpenApi("x") as unknown as {
    openapi: string;
    info: { version: string };
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: Json }> };
          responses: Record<string, unknown>;
          parameters?: { name: string; in: string }[];
        }
      >
    >;
    components: { schemas: Record<string, Json> };
  };

  it("is an OpenAPI 3.1.0 document with the given version", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("x");
  });

  it.each(OPERATIONS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    "documents %s",
    (_label, op) => {
      const entry = doc.paths[op.path]?.[op.method];
      expect(entry).toBeDefined();
      expect(Object.keys(entry!.responses)).toContain(String(op.response.status));
      for (const s of op.errors) expect(Object.keys(entry!.responses)).toContain(String(s));
      for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
        expect(entry!.parameters).toContainEqual(expect.objectContaining({ name, in: "path" }));
      }
    },
  );

  it("has no operation that is not in OPERATIONS", () => {
    const documented = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m} ${p}`),
    );
    expect(documented.sort()).toEqual(OPERATIONS.map((op) => `${op.method} ${op.path}`).sort());
  });

  it("resolves every $ref in the document to components.schemas", () => {
    const refs = collectRefs(doc, "#");
    expect(refs.length).toBeGreaterThan(0);
    const broken = refs.filter(({ ref }) => {
      const m = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
      return !m || !(decodeURIComponent(m[1]!) in doc.components.schemas);
    });
    expect(broken).toEqual([]);
  });

  it("declares the Error schema that every error response points to", () => {
    const error = doc.components.schemas.Error as { type?: string; properties?: Record<string, unknown> };
    expect(error).toBeDefined();
    expect(error.properties).toHaveProperty("error");
    const errorResponses = Object.values(doc.paths)
      .flatMap((m) => Object.values(m))
      .flatMap((op) =>
        Object.entries(op.responses)
          .filter(([s]) => Number(s) >= 400)
          .map(([, r]) => r),
      );
    expect(errorResponses.length).toBeGreaterThan(0);
    for (const r of errorResponses) {
      expect(r).toMatchObject({ content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });
    }
  });

  it("leaves only bodiless actions without a request body", () => {
    const bodiless = OPERATIONS.filter((op) => (op.method === "post" || op.method === "patch") && !op.body).map((op) => op.path);
    expect(bodiless).toEqual(["/api/v1/policy/history/{id}/revert", "/api/v1/tasks/{id}/cancel", "/api/v1/approvals/{id}/reveal", "/api/v1/approvals/{id}/revoke", "/api/v1/oauth/keys/rotate", "/api/v1/connections/{id}/connect", "/api/v1/servers/{slug}/auth/connect"]);
  });

  it("documents the approvals event stream as text/event-stream, each event's data an ApprovalEvent", () => {
    const entry = doc.paths["/api/v1/approvals/events"]!.get!;
    expect(entry.responses["200"]).toMatchObject({
      content: { "text/event-stream": { schema: { type: "string" }, "x-item-schema": { $ref: "#/components/schemas/ApprovalEvent" } } },
    });
    expect(doc.components.schemas.ApprovalEvent).toMatchObject({ properties: { approvalId: { type: "string" } } });
  });

  it.each(
    OPERATIONS.filter((op) => (op.method === "post" || op.method === "patch") && op.body).map(
      (op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const,
    ),
  )("gives %s a required JSON request body", (_label, op) => {
    const entry = doc.paths[op.path]![op.method] as {
      requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
    };
    expect(entry.requestBody?.required).toBe(true);
    expect(entry.requestBody?.content["application/json"]?.schema).toBeTruthy();
  });
});

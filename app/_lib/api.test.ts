import { describe, expect, it } from "vitest";
import { GatewayError } from "@/server/errors";
import { NextRequest } from "next/server";
import { z } from "zod";
import { readJson, toErrorResponse } from "./api";

describe("toErrorResponse", () => {
  it("answers a row removed by a concurrent request (Prisma P2025) with 404 not_found, not a 500", async () => {
    const err = Object.assign(new Error("No record was found for an update."), { name: "PrismaClientKnownRequestError", code: "P2025" });
    const res = toErrorResponse(err, "req-1");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "It was removed while this request ran." } });
  });

  it("keeps a gateway error's code and status", async () => {
    const res = toErrorResponse(new GatewayError("isolation_unavailable", "The docker profile cannot run on this host."), "req-2");
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("isolation_unavailable");
  });
});

describe("readJson", () => {
  const body = (text: string) => new NextRequest("http://localhost/api/v1/tokens", { method: "POST", body: text });
  it.each([
    ['{"name":"a\\u0000b"}', "name"],
    ['{"name":"\\ud800"}', "name"],
    ['{"tags":{"\\u0000":1}}', "tags.\\u0000"],
    ['{"list":["ok","x\\udc00"]}', "list.1"],
  ])("refuses %s with 422 validation_failed naming the path, before any schema or database sees it", async (text, path) => {
    const err = await readJson(body(text), z.unknown()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: "validation_failed", details: [{ path, message: "contains a NUL character or a lone surrogate, which cannot be stored" }] });
  });

  it("passes ordinary text, emoji included", async () => {
    expect(await readJson(body('{"name":"é 😀 \\\\u0000"}'), z.object({ name: z.string() }))).toEqual({ name: "é 😀 \\u0000" });
  });
});

describe("readJson – nesting", () => {
  it("refuses a body nested 200,000 levels deep with 400 invalid_json, before anything walks it recursively", async () => {
    const depth = 200_000;
    const req = new NextRequest("http://localhost/api/v1/policy/simulate", { method: "POST", body: `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}` });
    await expect(readJson(req, z.unknown())).rejects.toMatchObject({ code: "invalid_json", message: "The request body nests deeper than 128 levels." });
  });
});

import { describe, expect, it } from "vitest";
import { GatewayError } from "@/server/errors";
import { toErrorResponse } from "./api";

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

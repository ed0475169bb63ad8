import { describe, expect, it } from "vitest";
import { ApiError } from "@/components/api-client";
import { decideMany } from "./decide-many";

describe("decideMany", () => {
  it("decides every request in order and collects the failures with their messages", async () => {
    const seen: string[] = [];
    const outcome = await decideMany(
      [
        { id: "a", tool: "orders__delete_order" },
        { id: "b", tool: "orders__run_sql" },
        { id: "c", tool: "files__write_file" },
      ],
      { decision: "approve", comment: "ok" },
      (id, input) => {
        seen.push(`${id}:${input.decision}:${input.comment ?? ""}`);
        if (id === "b")
          return Promise.reject(
            new ApiError(409, "conflict", "Approval request b has already been decided (REJECTED)."),
          );
        return Promise.resolve();
      },
    );
    expect(seen).toEqual(["a:approve:ok", "b:approve:ok", "c:approve:ok"]);
    expect(outcome).toEqual({
      done: 2,
      failed: [
        {
          approval: { id: "b", tool: "orders__run_sql" },
          message: "Approval request b has already been decided (REJECTED).",
        },
      ],
    });
  });
});

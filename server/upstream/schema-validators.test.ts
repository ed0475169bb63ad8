import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation/types.js";
import { describe, expect, it } from "vitest";
import { compiledOncePerSchema } from "./schema-validators";

const schema = (): JsonSchemaType => ({ type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] });

describe("compiledOncePerSchema", () => {
  it("compiles an output schema once however many listings bring it anew, and validates with it", () => {
    let compiled = 0;
    const v = compiledOncePerSchema(10, () => {
      const ajv = new AjvJsonSchemaValidator();
      return { getValidator: (s) => (compiled++, ajv.getValidator(s)) };
    });
    for (let i = 0; i < 100; i++) v.getValidator(schema());
    expect(compiled).toBe(1);
    const check = v.getValidator(schema());
    expect(check({ ok: true }).valid).toBe(true);
    expect(check({ ok: "yes" })).toMatchObject({ valid: false });
  });

  it("starts over with a fresh compiler past its limit, so a server inventing schemas cannot grow it without bound", () => {
    let providers = 0;
    const v = compiledOncePerSchema(3, () => (providers++, new AjvJsonSchemaValidator()));
    for (let i = 0; i < 10; i++) v.getValidator({ type: "object", properties: { [`f${String(i)}`]: { type: "string" } } });
    expect(providers).toBe(4); // the first, then after every third new schema text
    expect(v.getValidator({ type: "string" })("text").valid).toBe(true);
  });
});

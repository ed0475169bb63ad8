// The JSON Schema validators of upstream tools' output schemas (the SDK Client compiles one per tool at every
// tools/list, to check structured results). Ajv keeps each compiled schema keyed by its object, and every listing
// brings new objects, so a long-lived connection that is listed again and again (list_changed, reconnects,
// per-user sessions) compiled the same schemas anew and kept them all. Here a schema is compiled once per text,
// shared by every connection of the pool; past `limit` texts the cache starts over with a fresh Ajv, so memory
// stays bounded even against a server that invents schemas.
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

export function compiledOncePerSchema(limit = 2000, newProvider: () => jsonSchemaValidator = () => new AjvJsonSchemaValidator()): jsonSchemaValidator {
  let provider = newProvider();
  const byText = new Map<string, JsonSchemaValidator<unknown>>();
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const text = JSON.stringify(schema);
      let v = byText.get(text);
      if (!v) {
        if (byText.size >= limit) {
          byText.clear();
          provider = newProvider();
        }
        v = provider.getValidator<unknown>(schema);
        byText.set(text, v);
      }
      return v as JsonSchemaValidator<T>;
    },
  };
}

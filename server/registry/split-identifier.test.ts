import { describe, expect, it } from "vitest";
import { splitIdentifier } from "./split-identifier";

describe("splitIdentifier", () => {
  it.each<[string, string[]]>([
    ["createInvoice", ["create", "invoice"]],
    ["create_invoice", ["create", "invoice"]],
    ["create-invoice", ["create", "invoice"]],
    ["create.invoice", ["create", "invoice"]],
    ["CreateInvoice", ["create", "invoice"]],
    ["HTTPServer", ["http", "server"]],
    ["getHTTPServerURL", ["get", "http", "server", "url"]],
    ["sha256Hash", ["sha256", "hash"]],
    ["__weird__name__", ["weird", "name"]],
    ["status", ["status"]],
    ["", []],
  ])("splits %j into %j", (name, words) => {
    expect(splitIdentifier(name)).toEqual(words);
  });
});

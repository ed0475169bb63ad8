import { describe, expect, it } from "vitest";
import { findNearDuplicates, type NearDuplicate } from "./near-duplicates";

const pair = (x: string, y: string, xDescription?: string, yDescription?: string) =>
  findNearDuplicates([
    { gatewayName: `one__${x}`, name: x, description: xDescription },
    { gatewayName: `two__${y}`, name: y, description: yDescription },
  ]);

describe("findNearDuplicates – names", () => {
  it.each<[string, string, number]>([
    ["query_order", "query_order_list", 1],
    ["get_user", "get_users", 1],
    ["createInvoice", "create_invoice", 1],
    ["create-invoice", "CreateInvoice", 1],
    ["get_user", "fetch_user", 1],
    ["get_user", "list_users", 1],
    ["search_issues", "searchIssue", 1],
    ["list_entries", "get_entry", 1],
    ["create_order", "order_create", 1],
    ["same_name", "same_name", 1],
    ["summarize_document", "summarise_document", 0.941],
    ["query_order", "query_order_item", 0.714],
    ["create_pull_request", "create_pull_request_review", 0.75],
  ])("flags %s / %s (score %d)", (x, y, score) => {
    expect(pair(x, y)).toEqual([{ a: `one__${x}`, b: `two__${y}`, score, reason: "name" }]);
  });

  it.each<[string, string]>([
    ["send_email", "delete_repository"],
    ["get_user", "delete_user"],
    ["read_file", "write_file"],
    ["get_user", "get_user_profile"],
    ["create_issue", "close_issue"],
    ["list", "get"],
    ["search_code", "search_commits"],
    ["query_order", "cancel_order_item"],
    ["a", "b"],
  ])("does not flag %s / %s", (x, y) => {
    expect(pair(x, y)).toEqual([]);
  });
});

describe("findNearDuplicates – descriptions", () => {
  const text = "Create a new invoice for a customer and email it to them.";
  it.each<[string, string, string, string | undefined, NearDuplicate["reason"] | undefined]>([
    ["bill_customer", "create_invoice", text, text, "description"],
    [
      "bill_customer",
      "create_invoice",
      text,
      "create a NEW invoice, for a customer; and email it to them!",
      "description",
    ],
    [
      "bill_customer",
      "create_invoice",
      text,
      "Create a new invoice for a customer and e-mail it to them.",
      "description",
    ],
    ["create_invoice", "createInvoice", text, text, "both"],
    ["bill_customer", "create_invoice", "Creates an invoice.", "Creates an invoice.", undefined],
    ["bill_customer", "create_invoice", text, "Refund a paid invoice and notify the customer by email.", undefined],
    ["bill_customer", "create_invoice", text, undefined, undefined],
    ["bill_customer", "create_invoice", "", "", undefined],
  ])("%s / %s with %j and %j → %s", (x, y, xDescription, yDescription, reason) => {
    const found = pair(x, y, xDescription, yDescription);
    expect(found.map((p) => p.reason)).toEqual(reason ? [reason] : []);
  });

  it("scores a description match with its Jaccard similarity", () => {
    const [found] = pair("a_one", "b_two", "one two three four five", "one two three four five six");
    expect(found).toEqual({ a: "one__a_one", b: "two__b_two", score: 0.833, reason: "description" });
  });

  it("honours custom thresholds", () => {
    const found = findNearDuplicates(
      [
        { gatewayName: "x__alpha", name: "alpha", description: "one two three" },
        { gatewayName: "y__beta", name: "beta", description: "one two four" },
      ],
      { descriptionSimilarity: 0.5, minDescriptionWords: 3 },
    );
    expect(found).toEqual([{ a: "x__alpha", b: "y__beta", score: 0.5, reason: "description" }]);
  });
});

describe("findNearDuplicates – pairs", () => {
  it("never pairs a tool with itself, even when it is listed twice", () => {
    const tool = { gatewayName: "gh__get_user", name: "get_user", description: "Get a user by login or id." };
    expect(findNearDuplicates([tool])).toEqual([]);
    expect(findNearDuplicates([tool, { ...tool }])).toEqual([]);
    expect(findNearDuplicates([])).toEqual([]);
  });

  it("reports each unordered pair once, sorted by score then name", () => {
    const found = findNearDuplicates([
      { gatewayName: "b__query_order_item", name: "query_order_item" },
      { gatewayName: "a__get_users", name: "get_users" },
      { gatewayName: "c__query_order", name: "query_order" },
      { gatewayName: "d__get_user", name: "get_user" },
      { gatewayName: "e__delete_repository", name: "delete_repository" },
    ]);
    expect(found).toEqual([
      { a: "a__get_users", b: "d__get_user", score: 1, reason: "name" },
      { a: "b__query_order_item", b: "c__query_order", score: 0.714, reason: "name" },
    ]);
  });

  it("gets through 500 tools and finds the planted pair", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const syllables = ["ka", "lo", "mi", "ne", "pu", "ro", "sa", "ti", "vo", "ze", "bra", "cle", "dri", "fro", "glu"];
    const word = () => Array.from({ length: 4 }, () => syllables[Math.floor(random() * syllables.length)]).join("");
    const tools = Array.from({ length: 498 }, (_, i) => {
      const name = `${word()}_${word()}`;
      const description = Array.from({ length: 12 }, word).join(" ");
      return { gatewayName: `s${i % 7}__${name}`, name, description };
    });
    tools.splice(123, 0, { gatewayName: "billing__createInvoice", name: "createInvoice", description: "Make a bill." });
    tools.splice(377, 0, {
      gatewayName: "erp__create_invoices",
      name: "create_invoices",
      description: "Issue an invoice.",
    });
    const found = findNearDuplicates(tools);
    expect(found).toContainEqual({ a: "billing__createInvoice", b: "erp__create_invoices", score: 1, reason: "name" });
  });
});

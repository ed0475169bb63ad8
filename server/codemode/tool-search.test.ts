import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { realisticTools } from "./fixtures/realistic-tools";
import {
  accessorFor,
  clampLimit,
  createToolIndex,
  firstSentence,
  MAX_LIMIT,
  processTerm,
  tokenize,
  type SearchableTool,
} from "./tool-search";

function tool(
  server: string,
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
  extra: Partial<SearchableTool> = {},
): SearchableTool {
  return {
    name: `${server}__${name}`,
    server,
    tool: name,
    description,
    inputSchema: { type: "object", properties, required: Object.keys(properties).slice(0, 1) },
    ...extra,
  };
}

// Distractors that share words with the queries below, so the ranking has something to get wrong.
const PLANTED: SearchableTool[] = [
  tool(
    "crm",
    "delete_contact",
    "Delete a contact. Their orders and order history stay untouched; to remove an order use the orders server.",
    {
      contact_id: { type: "string", description: "Contact to delete; orders are not deleted" },
    },
  ),
  tool(
    "orders",
    "cancel_order",
    "Cancel an order that has not shipped. Use this instead of deleting an order you want to keep on record.",
    {
      order_id: { type: "string", description: "The order to cancel" },
    },
  ),
  tool(
    "marketing",
    "send_campaign",
    "Send a marketing campaign to a customer segment. Newsletters and promotions go out by email.",
    {
      segment_id: { type: "string", description: "Customers who receive the campaign" },
    },
  ),
  // Same words, one in an argument name and one only in the description.
  tool("logistics", "plan_route", "Plan a delivery route for a driver.", {
    route_id: { type: "string" },
    glacier_tier: { type: "string", description: "Service level" },
  }),
  tool("logistics", "plan_pickup", "Plan a pickup for a driver; the glacier tier is chosen automatically.", {
    pickup_id: { type: "string" },
    service_level: { type: "string", description: "Service level" },
  }),
  tool("my-server", "do.thing", "Do the thing, with dots and dashes in the names.", { thing: { type: "string" } }),
];

const TOOLS = [...realisticTools(500).filter((t) => !PLANTED.some((p) => p.name === t.name)), ...PLANTED];
const index = createToolIndex(TOOLS);
const names = (query: string, limit?: number) =>
  index.search(query, { detail: "name", limit }).tools.map((t) => t.name);

describe("createToolIndex – ranking over 500 realistic tools", () => {
  it("indexes every tool once", () => {
    expect(index.size).toBe(TOOLS.length);
    expect(createToolIndex([...PLANTED, ...PLANTED]).size).toBe(PLANTED.length);
  });

  it('ranks the orders delete tool first for "delete an order"', () => {
    expect(names("delete an order")[0]).toBe("orders__delete_order");
    expect(names("Delete an order")[0]).toBe("orders__delete_order");
    expect(names("delete orders")[0]).toBe("orders__delete_order");
  });

  it('finds the email tool in the top 3 for "send an email to a customer"', () => {
    expect(names("send an email to a customer").slice(0, 3)).toContain("email__send_email");
  });

  it("counts argument names: an argument name outranks the same words in a description", () => {
    const ranked = names("glacier tier");
    expect(ranked.slice(0, 2)).toEqual(["logistics__plan_route", "logistics__plan_pickup"]);
    expect(
      names("tracking number")
        .slice(0, 5)
        .every((n) => n.includes("shipment")),
    ).toBe(true);
  });

  it('still finds order tools for the misspelling "ordr"', () => {
    const ranked = names("ordr");
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked.slice(0, 5).every((n) => /^orders(-[a-z]+)?__/.test(n) && n.includes("order"))).toBe(true);
    expect(names("delte ordr")[0]).toBe("orders__delete_order");
  });

  it("matches prefixes and every identifier style", () => {
    expect(names("refu")[0]).toBe("orders__refund_order");
    expect(names("find free slots")[0]).toBe("calendar__findFreeSlots");
    expect(names("create page wiki")[0]).toBe("docs-wiki__create-page");
    expect(names("bucket list")[0]).toBe("cloud-storage__bucket.list");
    expect(names("do.thing")[0]).toBe("my-server__do.thing");
  });

  it("breaks score ties by name, stably", () => {
    const twins = [
      tool("b", "sync", "Synchronise records.", { id: { type: "string" } }),
      tool("a", "sync", "Synchronise records.", { id: { type: "string" } }),
      tool("c", "sync", "Synchronise records.", { id: { type: "string" } }),
    ];
    const twinIndex = createToolIndex(twins);
    expect(twinIndex.search("synchronise", { detail: "name" }).tools.map((t) => t.name)).toEqual([
      "a__sync",
      "b__sync",
      "c__sync",
    ]);
    expect(names("list invoices")).toEqual(names("list invoices"));
  });

  it("answers nothing for an empty or stop-word-only query", () => {
    expect(index.search("").tools).toEqual([]);
    expect(index.search("   ").tools).toEqual([]);
    expect(index.search("the and of").tools).toEqual([]);
    expect(index.search("zzqxv").tools).toEqual([]);
  });

  it("stays fast for a pasted essay of a query", () => {
    const started = Date.now();
    const answer = index.search(`delete order ${"lorem ipsum dolor sit amet ".repeat(20_000)}`, { detail: "name" });
    expect(answer.tools[0]?.name).toBe("orders__delete_order");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("reads a query with NUL, lone surrogates and invisible characters without failing", () => {
    for (const noise of ["\u0000", "\ud800", "\udc00x", "\u200b", "\u202e", "'\ud800'", "#\u0000", "a@\ud800.com"]) {
      const answer = index.search(`delete order ${noise} 'cancelled ${noise}' ${noise}ORD-1234`, { detail: "name" });
      expect(answer.tools[0]?.name).toBe("orders__delete_order");
    }
  });
});

describe("createToolIndex – an admin's example requests (lib/tool-examples.ts)", () => {
  const base = realisticTools(500);
  const withExamples = (t: SearchableTool, exampleRequests: string[]) => ({ ...t, exampleRequests });

  it("finds a tool by words only its example requests have, and never shows them", () => {
    const target = base.find((t) => t.name === "inventory__list_warehouse")!;
    const query = "which quokka pens do we run?";
    expect(createToolIndex(base).search(query, { detail: "name", limit: 1 }).tools[0]?.name).not.toBe(target.name);
    const index = createToolIndex(base.map((t) => (t === target ? withExamples(t, ["where are our quokka pens", "every quokka pen we operate"]) : t)));
    const answer = index.search(query, { detail: "full", limit: 3 });
    expect(answer.tools[0]?.name).toBe(target.name);
    expect(JSON.stringify(answer)).not.toContain("quokka");
  });

  it("words every tool's requests use do not lift those tools over one that has none (distinctive weighting)", () => {
    // Forty tools whose admins wrote requests the way people ask ("show me my …", "can you list all …"), and the
    // gizmos tool, which has none: "show me all my gizmos" is still the gizmos tool's.
    const gizmos = tool("acme", "list_gizmos", "List the gizmos in stock.");
    const asked = base.slice(0, 40).map((t) => withExamples(t, [`show me my ${t.tool.replace(/_/g, " ")}`, "can you list all of them for me please", "show me everything I have"]));
    const index = createToolIndex([...asked, ...base.slice(40), gizmos]);
    expect(index.search("show me all my gizmos", { detail: "name", limit: 1 }).tools[0]?.name).toBe(gizmos.name);
  });
});

describe("createToolIndex – answer shapes", () => {
  it('"name" gives name and call only', () => {
    expect(index.search("delete an order", { detail: "name", limit: 1 })).toEqual({
      tools: [{ name: "orders__delete_order", call: "tools.orders.delete_order" }],
    });
  });

  it('"summary" (the default) adds a one-line description and the argument list', () => {
    const answer = index.search("delete an order", { limit: 1 });
    expect(answer).toEqual({
      tools: [
        {
          name: "orders__delete_order",
          call: "tools.orders.delete_order",
          description: "Delete an order from the order management system.",
          args: "order_id: string, reason?: string, hard_delete?: boolean",
        },
      ],
    });
  });

  it('"full" adds the TypeScript declaration', () => {
    const [hit] = index.search("delete an order", { detail: "full", limit: 1 }).tools;
    expect(Object.keys(hit!)).toEqual(["name", "call", "description", "args", "declaration"]);
    expect(hit!.declaration).toMatch(
      /^\/\*\* Delete an order from the order management system\. This cannot be undone\. \*\/\ndeclare function delete_order\(args: \{\n/,
    );
    expect(hit!.declaration).toContain("  order_id: string;");
  });

  it("quotes accessors that are not identifiers", () => {
    const [hit] = index.search("do thing dots dashes", { detail: "name", limit: 1 }).tools;
    expect(hit).toEqual({ name: "my-server__do.thing", call: 'tools["my-server"]["do.thing"]' });
    expect(accessorFor("orders", "query_orders")).toBe("tools.orders.query_orders");
    expect(accessorFor("docs-wiki", "create-page")).toBe('tools["docs-wiki"]["create-page"]');
  });

  it("describes a tool by its title when it has no description", () => {
    const titled = createToolIndex([
      tool("x", "ping", "", {}, { description: null, title: "Ping the server. Cheap." }),
    ]);
    expect(titled.search("ping").tools[0]?.description).toBe("Ping the server.");
  });
});

describe("createToolIndex – limits", () => {
  it("returns 10 by default, at most 50 and at least 1", () => {
    expect(names("order")).toHaveLength(10);
    expect(names("order", 3)).toHaveLength(3);
    expect(names("order", 500)).toHaveLength(MAX_LIMIT);
    expect(names("order", 0)).toHaveLength(1);
    expect(names("order", -5)).toHaveLength(1);
    expect(names("order", 2.9)).toHaveLength(2);
    expect(names("order", Number.NaN)).toHaveLength(10);
  });

  it.each([
    [undefined, 10],
    [1, 1],
    [50, 50],
    [51, 50],
    [Infinity, 10],
  ])("clampLimit(%s) = %s", (limit, expected) => {
    expect(clampLimit(limit)).toBe(expected);
  });
});

describe("text processing", () => {
  it("splits identifiers and free text into words", () => {
    expect(tokenize("delete_order deleteOrder create-page bucket.list HTTPServer")).toEqual([
      "delete",
      "order",
      "delete",
      "order",
      "create",
      "page",
      "bucket",
      "list",
      "http",
      "server",
    ]);
    expect(tokenize("Lösche die Bestellung!")).toEqual(["lösche", "die", "bestellung"]);
  });

  it("stems words and drops function words", () => {
    expect(
      ["orders", "ordered", "companies", "addresses", "matches", "status", "news", "an", "The", "whats"].map(
        processTerm,
      ),
    ).toEqual(["order", "order", "compani", "address", "match", "status", "news", null, null, null]);
  });

  it("keeps the first sentence, at most 160 characters", () => {
    expect(firstSentence("Delete an order.  Irreversible!")).toBe("Delete an order.");
    expect(firstSentence("Version 2.5 of the API.\nMore text.")).toBe("Version 2.5 of the API.");
    expect(firstSentence("no full stop")).toBe("no full stop");
    const long = firstSentence(`${"word ".repeat(60)}end.`);
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long.endsWith("word…")).toBe(true);
  });
});

describe("answer size", () => {
  const encoding = getEncoding("o200k_base");
  const tokens = (value: unknown) => encoding.encode(JSON.stringify(value)).length;
  const queries = [
    "delete an order",
    "send an email to a customer",
    "create invoice",
    "list open pull requests",
    "schedule a meeting",
    "export report",
    "update ticket priority",
    "upload a file",
  ];

  // About 60 tokens a tool: which tools fill the ten places moves an answer by a few dozen ("list open pull
  // requests" was 598 with update/delete in places 9–10, 621 with search/list_ticket, which describe more).
  it("keeps a typical summary answer of 10 tools under 650 o200k tokens", () => {
    for (const query of queries) {
      const answer = index.search(query, { detail: "summary", limit: 10 });
      expect(answer.tools).toHaveLength(10);
      expect(tokens(answer), query).toBeLessThan(650);
    }
  });

  it("keeps a name answer of 10 tools under 250 tokens", () => {
    for (const query of queries) expect(tokens(index.search(query, { detail: "name" })), query).toBeLessThan(250);
  });
});

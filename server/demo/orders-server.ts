// The bundled demo upstream: an orders back-office MCP server with tight schemas, a slow export that reports
// progress, a destructive delete, and `run_sql` on its own small database. Used on first start and as a
// test fixture (stdio and Streamable HTTP).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import pg from "pg";
import { ORDER_STATUSES } from "./orders-db";

const ORDER_ID = { type: "string", pattern: "^ORD-[0-9]{5}$", description: "Order id, e.g. ORD-10001" } as const;
const STATUS = { type: "string", enum: ORDER_STATUSES, description: "Order status" } as const;
const ORDER = {
  type: "object",
  properties: {
    id: { type: "string" },
    customer_name: { type: "string" },
    customer_email: { type: "string" },
    customer_phone: { type: "string" },
    status: STATUS,
    total_cents: { type: "integer" },
    currency: { type: "string" },
    note: { type: ["string", "null"] },
    created_at: { type: "string" },
    updated_at: { type: "string" },
  },
  required: ["id", "status", "total_cents"],
} as const;

export const ORDER_TOOLS: Tool[] = [
  {
    name: "query_orders",
    title: "Query orders",
    description: "Find orders by status and/or customer e-mail, newest first. Returns at most `limit` orders and the total count.",
    inputSchema: {
      type: "object",
      properties: {
        status: STATUS,
        customer_email: { type: "string", maxLength: 254, description: "Exact customer e-mail" },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Orders per page (1–100)" },
        offset: { type: "integer", minimum: 0, maximum: 100000, default: 0, description: "Orders to skip" },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { orders: { type: "array", items: ORDER }, total: { type: "integer" } },
      required: ["orders", "total"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "update_order",
    title: "Update an order",
    description: "Set an order's status and optionally a note. Idempotent: the same update twice leaves the same order.",
    inputSchema: {
      type: "object",
      properties: { order_id: ORDER_ID, status: STATUS, note: { type: "string", maxLength: 500, description: "Internal note" } },
      required: ["order_id", "status"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "delete_order",
    title: "Delete an order",
    description: "Permanently delete an order. This cannot be undone.",
    inputSchema: {
      type: "object",
      properties: { order_id: ORDER_ID, reason: { type: "string", maxLength: 500, description: "Why the order is deleted" } },
      required: ["order_id", "reason"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "export_orders",
    title: "Export orders",
    description: "Export orders as CSV or JSON Lines. Takes a few seconds and reports progress.",
    inputSchema: {
      type: "object",
      properties: { status: STATUS, format: { type: "string", enum: ["csv", "jsonl"], default: "csv", description: "Output format" } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "run_sql",
    title: "Run SQL",
    description: "Run one SQL statement on the orders database (table `orders`) and return up to 500 rows.",
    inputSchema: {
      type: "object",
      properties: { sql: { type: "string", minLength: 1, maxLength: 10000, description: "One SQL statement" } },
      required: ["sql"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  },
];

export type OrdersServerOptions = { databaseUrl: string; exportStepMs?: number };

type Row = Record<string, unknown>;
type OrderRow = Row & { id: string; customer_name: string; customer_email: string; status: string; total_cents: number; currency: string };

const text = (s: string): CallToolResult => ({ content: [{ type: "text", text: s }] });
const fail = (s: string): CallToolResult => ({ content: [{ type: "text", text: s }], isError: true });
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), reject(new Error("cancelled"))), { once: true });
  });

/** Builds the MCP server; `close()` on the returned handle ends its database pool. */
export function createOrdersServer(opts: OrdersServerOptions): { server: Server; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 4, statement_timeout: 10_000 });
  const server = new Server(
    { name: "portcullis-demo-orders", version: "1.0.0", title: "Orders (demo)" },
    { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} }, instructions: "Back-office tools for customer orders." },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: ORDER_TOOLS }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const args: Record<string, unknown> = req.params.arguments ?? {};
    switch (req.params.name) {
      case "query_orders": {
        const where: string[] = [];
        const params: unknown[] = [];
        if (typeof args.status === "string") where.push(`status = $${params.push(args.status)}`);
        if (typeof args.customer_email === "string") where.push(`customer_email = $${params.push(args.customer_email)}`);
        const cond = where.length ? `WHERE ${where.join(" AND ")}` : "";
        const limit = Math.min(100, Math.max(1, Number(args.limit ?? 20)));
        const offset = Math.max(0, Number(args.offset ?? 0));
        const [rows, total] = await Promise.all([
          pool.query<OrderRow>(`SELECT * FROM orders ${cond} ORDER BY created_at DESC LIMIT ${limit} OFFSET ${offset}`, params),
          pool.query<{ n: string }>(`SELECT count(*) AS n FROM orders ${cond}`, params),
        ]);
        const structured = { orders: rows.rows.map(serialize), total: Number(total.rows[0]?.n ?? 0) };
        return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
      }
      case "update_order": {
        const res = await pool.query<OrderRow>("UPDATE orders SET status = $2, note = COALESCE($3, note), updated_at = now() WHERE id = $1 RETURNING *", [
          args.order_id,
          args.status,
          args.note ?? null,
        ]);
        return res.rows[0] ? text(JSON.stringify(serialize(res.rows[0]))) : fail(`No order ${String(args.order_id)}.`);
      }
      case "delete_order": {
        const res = await pool.query("DELETE FROM orders WHERE id = $1", [args.order_id]);
        return res.rowCount ? text(`Deleted order ${String(args.order_id)}.`) : fail(`No order ${String(args.order_id)}.`);
      }
      case "export_orders": {
        const params: unknown[] = [];
        const cond = typeof args.status === "string" ? `WHERE status = $${params.push(args.status)}` : "";
        const { rows } = await pool.query<OrderRow>(`SELECT * FROM orders ${cond} ORDER BY id`, params);
        const steps = 10;
        const token = req.params._meta?.progressToken;
        const out: string[] = args.format === "jsonl" ? [] : ["id,customer_name,customer_email,status,total_cents,currency"];
        for (let s = 0; s < steps; s++) {
          for (const r of rows.slice(Math.floor((s * rows.length) / steps), Math.floor(((s + 1) * rows.length) / steps))) {
            out.push(args.format === "jsonl" ? JSON.stringify(serialize(r)) : [r.id, r.customer_name, r.customer_email, r.status, r.total_cents, r.currency].join(","));
          }
          await sleep(opts.exportStepMs ?? 300, extra.signal);
          if (token !== undefined) {
            await extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress: s + 1, total: steps, message: `exported ${Math.round(((s + 1) * 100) / steps)}%` },
            });
          }
        }
        return text(out.join("\n"));
      }
      case "run_sql": {
        try {
          // Several statements in one string answer with one result per statement.
          const res = (await pool.query<Row>(String(args.sql))) as pg.QueryResult<Row> | pg.QueryResult<Row>[];
          const last = Array.isArray(res) ? res.at(-1) : res;
          const rows = last?.rows ?? [];
          return text(JSON.stringify({ command: last?.command ?? "", rowCount: rows.length, rows: rows.slice(0, 500).map(serialize) }));
        } catch (err) {
          return fail(`SQL error: ${(err as Error).message}`);
        }
      }
      default:
        return fail(`Unknown tool ${req.params.name}.`);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [{ uri: "orders://schema", name: "orders-schema", title: "Orders table", mimeType: "text/plain", description: "Columns of the orders table" }],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{ uriTemplate: "orders://order/{id}", name: "order", title: "One order", mimeType: "application/json" }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri;
    if (uri === "orders://schema") {
      const { rows } = await pool.query<{ column_name: string; data_type: string }>(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'orders' ORDER BY ordinal_position",
      );
      return { contents: [{ uri, mimeType: "text/plain", text: rows.map((r) => `${r.column_name} ${r.data_type}`).join("\n") }] };
    }
    const m = /^orders:\/\/order\/(ORD-\d{5})$/.exec(uri);
    if (!m) throw new Error(`Unknown resource ${uri}`);
    const { rows } = await pool.query<OrderRow>("SELECT * FROM orders WHERE id = $1", [m[1]]);
    if (!rows[0]) throw new Error(`No order ${m[1]}`);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(serialize(rows[0])) }] };
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [{ name: "summarize_order", title: "Summarize an order", arguments: [{ name: "order_id", description: "Order id", required: true }] }],
  }));
  server.setRequestHandler(GetPromptRequestSchema, (req) => ({
    messages: [
      {
        role: "user",
        content: { type: "text", text: `Summarize order ${req.params.arguments?.order_id ?? "?"} for a support agent: status, amount, and next step.` },
      },
    ],
  }));

  return { server, close: () => pool.end() };
}

function serialize(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));
}

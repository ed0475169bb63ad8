// The same echo upstream over stdio, for a plain proxy that only bridges stdio to HTTP (supergateway). An argument
// names a JSON file of more tool definitions to list beside echo (shipped.ts, BENCH_UPSTREAM_SIBLINGS).
import { readFileSync } from "node:fs";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { createEchoServer } from "./echo-server";

const siblings = process.argv[2] ? (JSON.parse(readFileSync(process.argv[2], "utf8")) as Tool[]) : [];
await createEchoServer(siblings).connect(new StdioServerTransport());

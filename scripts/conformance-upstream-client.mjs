#!/usr/bin/env node
/* global fetch */
// The command the MCP conformance suite's client auth scenarios run (`conformance client --command …`): hands the
// scenario's server URL to the Portcullis under test (CONFORMANCE_PORTCULLIS_URL, served by
// scripts/test-support/conformance-portcullis.ts), which registers it as an upstream, connects an account and
// calls its tool. Exits 0 when the call through Portcullis succeeded.
const serverUrl = process.argv[2];
const portcullis = process.env.CONFORMANCE_PORTCULLIS_URL;
if (!serverUrl || !portcullis) {
  console.error("usage: CONFORMANCE_PORTCULLIS_URL=… conformance-upstream-client.mjs <server-url>");
  process.exit(2);
}
const res = await fetch(`${portcullis}/run`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ serverUrl, scenario: process.env.MCP_CONFORMANCE_SCENARIO ?? "", context: JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") }),
});
const { ok, log } = await res.json();
for (const line of log) console.error(`[portcullis] ${line}`);
process.exit(ok ? 0 : 1);

// The same echo upstream over stdio, for a plain proxy that only bridges stdio to HTTP (supergateway).
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createEchoServer } from "./echo-server";

await createEchoServer().connect(new StdioServerTransport());

// Child process: the echo upstream over Streamable HTTP on 127.0.0.1. Mode from BENCH_UPSTREAM
// ("stateful-json" | "stateful-sse" | "stateless-json" | "stateless-sse"); tells the parent its URL over IPC.
import { serveEchoHttp } from "./echo-server";
import { parseUpstreamMode, serveChild } from "./child";

const echo = await serveEchoHttp(parseUpstreamMode(process.env.BENCH_UPSTREAM));
serveChild({ ready: { url: echo.url }, stop: () => echo.close() });

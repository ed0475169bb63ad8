// Next.js calls register() once when a server process starts: connect the upstream MCP servers and start the task
// workers. `portcullis start` loads Next.js while its database starts, so it asks for the start function instead and
// calls it once the migrations are applied (scripts/start-server.ts, gatewayStarter); `next start` and `next dev`
// start the gateway here.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const handOver = (globalThis as Record<symbol, ((start: () => unknown) => void) | undefined>)[Symbol.for("portcullis.startGateway")];
  if (!handOver && !process.env.DATABASE_URL) return;
  const { getGateway } = await import("./app/_lib/gateway");
  const start = () => {
    const gateway = getGateway();
    gateway.startUpstreams().catch((err: unknown) => gateway.logger.error({ err }, "connecting upstream servers failed"));
    gateway.startTasks().catch((err: unknown) => gateway.logger.error({ err }, "starting the task workers failed"));
    return gateway;
  };
  if (handOver) handOver(start);
  else start();
}

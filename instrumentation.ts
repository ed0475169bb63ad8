// Next.js calls register() once when a server process starts: connect the upstream MCP servers.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.DATABASE_URL) return;
  const { getGateway } = await import("./app/_lib/gateway");
  const gateway = getGateway();
  gateway.startUpstreams().catch((err: unknown) => gateway.logger.error({ err }, "connecting upstream servers failed"));
  gateway.startTasks().catch((err: unknown) => gateway.logger.error({ err }, "starting the task workers failed"));
}

// POST /api/v1/codemode/run – run a code-mode program with your permissions or one of your agent sessions'
// (the console's playground); the answer lists each tool call with the gateway's decision and latency
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCodeRun } from "@/lib/codemode-schemas";

export const POST = apiRoute("USER", async ({ req, ctx }) => getGateway().codeMode.run(ctx, await readJson(req, ZCodeRun)));

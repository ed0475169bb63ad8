// Runs ensureBuild on a root without a build (argv[2]), logging to stdout as `portcullis start` does (its logger), with a
// stand-in build that prints a line and writes .next/BUILD_ID: the test reads the order of the lines.
// pino's writes go through libuv's thread pool; on a loaded machine they wait there. Keeping every pool thread
// busy for a moment makes that wait certain rather than a matter of luck.
import { pbkdf2 } from "node:crypto";
import { createSyncLogger } from "../../server/logger";
import { ensureBuild } from "../ensure-build";

const root = process.argv[2];
if (!root) throw new Error("usage: ensure-build-driver.ts <root>");
const poolSize = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
for (let i = 0; i < poolSize; i++) pbkdf2("x", "salt", 2_000_000, 32, "sha256", () => undefined);
const build = `const fs = require("node:fs"); fs.mkdirSync(".next"); fs.writeFileSync(".next/BUILD_ID", "x"); console.log("BUILD OUTPUT");`;
await ensureBuild({ root, allowBuild: true, log: createSyncLogger("info"), command: [process.execPath, "-e", build] });

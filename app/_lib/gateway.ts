// The app's handle on the gateway core. Next.js may load route modules in separate bundles, so the one
// instance per process is kept on globalThis (the only such global; see docs/decisions.md).
import { loadConfig } from "@/server/config";
import { createDb } from "@/server/db/client";
import { createGateway, type Gateway } from "@/server/index";
import { createLogger } from "@/server/logger";

const KEY = Symbol.for("portcullis.gateway");
type Holder = { [KEY]?: Gateway };

export function getGateway(): Gateway {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const config = loadConfig();
    const url = config.databaseUrl;
    if (!url) throw new Error("DATABASE_URL is not set: start Portcullis with `npm start` (or `portcullis start`).");
    holder[KEY] = createGateway({ db: createDb(url, { max: config.databasePoolMax }), databaseUrl: url, logger: createLogger(config.logLevel), config });
  }
  return holder[KEY];
}

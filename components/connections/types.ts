// The console's names for the upstream-auth REST shapes, all derived from lib/upstream-auth-schemas.ts (the
// contract the routes answer with), so the page and the routes cannot drift apart.
import type { z } from "zod";
import type {
  TConnection,
  TConnectionList,
  TServerAuth,
  ZAuthorizationUrl,
  ZConnectionStatus,
  ZPutServerAuth,
  ZServerConnectionList,
  ZUpstreamAuthModeName,
} from "@/lib/upstream-auth-schemas";

export type { TConnection, TConnectionList, TServerAuth };
export type TAvailableServer = TConnectionList["available"][number];
export type TAuthorizationUrl = z.infer<typeof ZAuthorizationUrl>;
export type TConnectionStatus = z.infer<typeof ZConnectionStatus>;
export type TUpstreamAuthMode = z.infer<typeof ZUpstreamAuthModeName>;
export type TClientRegistration = NonNullable<TServerAuth["registration"]>;
/** What the console sends; the route parses it with ZPutServerAuth. */
export type TPutServerAuth = z.input<typeof ZPutServerAuth>;
export type TServerConnectionList = z.infer<typeof ZServerConnectionList>;
export type TServerConnection = TServerConnectionList["connections"][number];

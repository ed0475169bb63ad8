// The one reading of a server's status that every view shows (servers list, server header, Tools tab,
// dashboard): a reconnect attempt after a failure is still "Down", not "Connecting", so two views polled a moment
// apart cannot tell different stories about the same server.
import type { TServer } from "./schemas";

export type ServerTone = "healthy" | "degraded" | "down" | "connecting" | "disabled";
export type ServerState = {
  tone: ServerTone;
  label: string;
  /** Whether the gateway can serve the server's tools now. */
  serving: boolean;
  /** Why a server lists no tools, said the way this state calls for. */
  noTools: string;
};

export function serverState(s: Pick<TServer, "status" | "lastError">): ServerState {
  switch (s.status) {
    case "HEALTHY":
      return { tone: "healthy", label: "Healthy", serving: true, noTools: CONNECTED_NO_TOOLS };
    case "DEGRADED":
      return { tone: "degraded", label: "Degraded", serving: true, noTools: CONNECTED_NO_TOOLS };
    case "DISABLED":
      return { tone: "disabled", label: "Disabled", serving: false, noTools: "The server is disabled: enable it to connect and list its tools." };
    case "CONNECTING":
      // Connecting again after a failure: the failure stands until an attempt succeeds.
      if (s.lastError) return { tone: "down", label: "Down", serving: false, noTools: `${NOT_CONNECTED} The gateway is trying again now.` };
      return { tone: "connecting", label: "Connecting", serving: false, noTools: "The gateway is connecting to the server; its tools show once it answers." };
    case "DOWN":
      return { tone: "down", label: "Down", serving: false, noTools: `${NOT_CONNECTED} The gateway keeps retrying; fix the error above, or retry now.` };
  }
}

const CONNECTED_NO_TOOLS = "The server is connected but offers no tools. Its other capabilities (resources, prompts) show under Versions.";
const NOT_CONNECTED = "The server has not connected, so its tools are unknown.";

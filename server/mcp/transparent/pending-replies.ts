// Requests Portcullis relayed to an agent (sampling, elicitation, roots), waiting for the agent's reply. The
// reply arrives as its own POST, possibly on another process, which forwards it over the change bus.
import { McpError } from "@modelcontextprotocol/sdk/types.js";

type Waiter = { resolve: (m: Record<string, unknown>) => void; reject: (e: Error) => void };

export class PendingReplies {
  private readonly waiters = new Map<string, Waiter>();

  private static key(mcpSessionId: string, id: unknown) {
    return `${mcpSessionId}\n${JSON.stringify(id)}`;
  }

  /** Resolves with the agent's reply message ({ result } or { error }); rejects on timeout or abort. */
  wait(mcpSessionId: string, id: string, timeoutMs: number, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const key = PendingReplies.key(mcpSessionId, id);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(key);
        signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        done();
        reject(new McpError(-32800, "The upstream cancelled its request"));
      };
      const timer = setTimeout(() => {
        done();
        reject(new McpError(-32001, `The agent did not answer within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      timer.unref();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.set(key, {
        resolve: (m) => {
          done();
          resolve(m);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
    });
  }

  /** Hands a reply to its waiter; false when nobody here waits for it. */
  settle(mcpSessionId: string, message: Record<string, unknown>): boolean {
    const w = this.waiters.get(PendingReplies.key(mcpSessionId, message.id));
    if (!w) return false;
    w.resolve(message);
    return true;
  }

  /** Ends a wait whose request could not be sent: nobody will answer it. */
  forget(mcpSessionId: string, id: string) {
    this.waiters.get(PendingReplies.key(mcpSessionId, id))?.reject(new McpError(-32000, "The request could not be sent to the agent"));
  }

  dropSession(mcpSessionId: string) {
    for (const [key, w] of this.waiters) if (key.startsWith(`${mcpSessionId}\n`)) w.reject(new McpError(-32000, "The session was closed"));
  }
}

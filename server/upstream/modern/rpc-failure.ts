// A JSON-RPC error the transport answers a request with: the upstream's own, or one of ours about the upstream.
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  static fromJson(error: unknown): RpcFailure {
    const e = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; message?: unknown; data?: unknown };
    return new RpcFailure(typeof e.code === "number" && Number.isInteger(e.code) ? e.code : -32603, typeof e.message === "string" ? e.message : "The upstream answered with an error", e.data);
  }

  static from(err: unknown): RpcFailure {
    if (err instanceof RpcFailure) return err;
    return new RpcFailure(-32603, err instanceof Error ? err.message : String(err));
  }

  toJson(): { code: number; message: string; data?: unknown } {
    return { code: this.code, message: this.message, ...(this.data !== undefined && { data: this.data }) };
  }
}

// Polls `probe` until it returns a value other than undefined, or fails with the last reason after `timeoutMs`.
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  opts: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 100 } = opts;
  const until = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > until) {
      const reason = lastError instanceof Error ? `: ${lastError.message}` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

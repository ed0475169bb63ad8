// How many programs a caller may run: `perMinute` runs per caller, counted in the shared rate-limit table (so
// across every gateway process, like tool calls), and at most `concurrent` at once in this process. A program
// holds a worker for up to CODE_MODE_WALL_MS, so one caller's burst would otherwise queue everyone behind it.
// Each of its tool calls is still counted by the pipeline's own limits; this counts the runs themselves.

export type RunGateOptions = {
  perMinute: number;
  concurrent: number;
  /** The shared limiter: undefined when a unit of `key`'s budget was taken, else ms until the window ends. */
  take: (key: string, limit: number) => Promise<number | undefined>;
};

export type RunRefusal = { code: "rate_limited"; message: string; retryAfterSeconds: number };

export type RunGate = {
  /** Admits one run of `caller` (an agent session's key, or `user:<id>` in the console), or says why not. */
  admit(caller: string): Promise<{ release: () => void } | RunRefusal>;
};

export function createRunGate(opts: RunGateOptions): RunGate {
  const running = new Map<string, number>();
  return {
    async admit(caller) {
      const now = running.get(caller) ?? 0;
      if (now >= opts.concurrent) {
        return {
          code: "rate_limited",
          message: `Too many programs at once: ${String(now)} of this caller's are running (at most ${String(opts.concurrent)}). Wait for one to finish.`,
          retryAfterSeconds: 1,
        };
      }
      running.set(caller, now + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = (running.get(caller) ?? 1) - 1;
        if (left > 0) running.set(caller, left);
        else running.delete(caller);
      };
      const retryAfterMs = await opts.take(`code:${caller}`, opts.perMinute).catch((err: unknown) => {
        release();
        throw err;
      });
      if (retryAfterMs === undefined) return { release };
      release();
      const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
      return {
        code: "rate_limited",
        message: `Too many programs: at most ${String(opts.perMinute)} runs a minute for this caller. Try again in ${String(seconds)} s.`,
        retryAfterSeconds: seconds,
      };
    },
  };
}

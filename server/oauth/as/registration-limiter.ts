// Dynamic client registration is open to anyone who can reach the gateway: a fixed window per client address
// keeps one caller from filling the clients table. Per process (each of several gateways allows its own share).
export function createRegistrationLimiter(perHour: number, now = () => Date.now()) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key: string): boolean {
      const t = now();
      const w = windows.get(key);
      if (!w || t - w.start >= 3_600_000) {
        if (windows.size > 10_000) windows.clear(); // bounded: a flood of addresses cannot grow it without end
        windows.set(key, { start: t, count: 1 });
        return true;
      }
      if (w.count >= perHour) return false;
      w.count++;
      return true;
    },
  };
}

// Values parsed from a request are walked recursively further on (schema validation, JSON.stringify for storage
// and audit): a body of 1 MB can nest 500,000 levels deep and overflow the stack there. Measured iteratively here.

/** The deepest nesting any request value may have; tool arguments and API bodies stay far below it. */
export const MAX_JSON_DEPTH = 128;

/** True when `value` nests arrays or objects more than `max` levels deep. */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: depth + 1 });
  }
  return false;
}

// Whether two words are at most `max` edits apart (insert, delete, substitute, swap two neighbours: "delte" is
// one from "delet"). Stops as soon as a row exceeds `max`, so a miss costs a few comparisons.
export function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, prevPrev[j - 2]! + 1);
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return false;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length]! <= max;
}

// Small vector helpers shared by the providers, the store and the ranking.

/** Scales to unit length in place; a zero or non-finite vector is refused by the caller before this. */
export function normalizeInPlace(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

/** Dot product of two unit vectors = their cosine similarity; vectors of different length score 0. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

export function isUsableVector(vector: ArrayLike<number>): boolean {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const v = vector[i]!;
    if (!Number.isFinite(v)) return false;
    sum += v * v;
  }
  return sum > 0;
}

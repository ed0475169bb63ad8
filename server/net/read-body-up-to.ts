// A response body read up to a size limit: a huge or endless answer from a service we call (an embedding
// endpoint, an OpenID provider's discovery) must not fill our memory. A declared length over the limit is refused
// before reading; otherwise the read stops at the first chunk past it.
export async function readBodyUpTo(res: Response, maxBytes: number, tooBig: () => Error): Promise<string> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw tooBig();
  }
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooBig();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

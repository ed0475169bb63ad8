// The EmbeddingError a provider's promise rejects with (fails the test if it resolves or rejects otherwise).
import { expect } from "vitest";
import { EmbeddingError } from "../codemode/embeddings/embedding-error";

export async function embeddingFailure(promise: Promise<unknown>): Promise<EmbeddingError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EmbeddingError);
  return err as EmbeddingError;
}

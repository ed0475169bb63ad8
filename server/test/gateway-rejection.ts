import { expect } from "vitest";
import { GatewayError } from "../errors";

/** The GatewayError a promise rejects with; fails the test when it resolves or throws anything else. */
export async function gatewayRejection(p: Promise<unknown>): Promise<GatewayError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
}

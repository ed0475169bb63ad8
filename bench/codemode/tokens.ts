// Tokens as a model of the GPT-4o family counts them (o200k_base): the yardstick of what an agent's context holds.
import { getEncoding, type Tiktoken } from "js-tiktoken";

let encoder: Tiktoken | undefined;

export function tokens(text: string): number {
  encoder ??= getEncoding("o200k_base");
  return encoder.encode(text).length;
}

/** Tokens of a value as JSON (compact, as a client would put it in the context). */
export const jsonTokens = (value: unknown): number => tokens(JSON.stringify(value));

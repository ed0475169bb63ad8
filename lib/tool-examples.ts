// Example requests of a tool, written by an admin in the words agents use ("text a one-time code to this number"):
// code mode's search_tools indexes them beside the tool's own text, so a tool is found by what people ask for
// even when its upstream description says it otherwise. They are never shown to a model. Each is one line of
// printable text (PostgreSQL stores no NUL or lone surrogate), a few words at least, and the list is short and
// without repeats: a long list would outweigh the tool's own definition. Each refusal has a stable code.
import { z } from "zod";
import { lineProblem } from "./server-summary";

export const MAX_EXAMPLE_REQUESTS = 10;
export const MAX_EXAMPLE_REQUEST_CHARS = 200;
export const MIN_EXAMPLE_REQUEST_CHARS = 3;

export type ExampleProblemCode =
  | "example_too_long"
  | "example_too_short"
  | "example_control_character"
  | "example_invalid_unicode"
  | "example_duplicate"
  | "examples_too_many";

/** A problem of the list (`index` null) or of one request in it. */
export type ExampleProblem = { index: number | null; code: ExampleProblemCode; message: string };

/** The form two requests are compared in: case, width and spacing do not make a request new. */
const sameKey = (request: string) => request.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ");

/** What is wrong with these requests (each already trimmed), in order; [] when they can be stored. */
export function exampleRequestsProblems(requests: readonly string[]): ExampleProblem[] {
  const problems: ExampleProblem[] = [];
  if (requests.length > MAX_EXAMPLE_REQUESTS) {
    problems.push({ index: null, code: "examples_too_many", message: `at most ${String(MAX_EXAMPLE_REQUESTS)} example requests` });
  }
  const seen = new Map<string, number>();
  requests.forEach((request, index) => {
    const line = lineProblem(request, MAX_EXAMPLE_REQUEST_CHARS);
    if (line) return void problems.push({ index, code: `example_${line.kind}`, message: `example request ${String(index + 1)} ${line.message}` });
    if ([...request].length < MIN_EXAMPLE_REQUEST_CHARS) {
      return void problems.push({ index, code: "example_too_short", message: `example request ${String(index + 1)} is at least ${String(MIN_EXAMPLE_REQUEST_CHARS)} characters` });
    }
    const key = sameKey(request);
    const first = seen.get(key);
    if (first !== undefined) {
      return void problems.push({ index, code: "example_duplicate", message: `example request ${String(index + 1)} repeats request ${String(first + 1)}` });
    }
    seen.set(key, index);
  });
  return problems;
}

/** A textarea's text as requests: one per line, trimmed, blank lines left out. */
export const exampleRequestLines = (text: string): string[] =>
  text
    .split(/\r\n|\r|\n/u)
    .map((line) => line.trim())
    .filter((line) => line !== "");

/** The requests as the REST API takes them, each trimmed; [] clears them. */
export const ZToolExampleRequests = z
  .array(z.string().trim())
  .superRefine((requests, ctx) => {
    for (const problem of exampleRequestsProblems(requests)) {
      ctx.addIssue({ code: "custom", message: problem.message, path: problem.index === null ? [] : [problem.index], params: { code: problem.code } });
    }
  })
  .meta({
    description: `Requests an agent might word for this tool, one line each (at most ${String(MAX_EXAMPLE_REQUESTS)}, ${String(MIN_EXAMPLE_REQUEST_CHARS)}–${String(MAX_EXAMPLE_REQUEST_CHARS)} characters, no repeats): code mode's search_tools finds the tool by them; they are never shown to a model. [] clears them`,
  });

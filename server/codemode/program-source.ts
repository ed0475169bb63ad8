// A program as the sandbox runs it: the agent's body wrapped as an async function (wrapProgram), its TypeScript types
// stripped by esbuild's transform first. Plain JavaScript skips esbuild (the round trip costs more than starting the
// sandbox): V8 only compiles the source here to tell, and nothing of it runs on the gateway. esbuild is loaded on
// first use from the app's node_modules, outside any bundle (it ships a native binary).
import { createRequire } from "node:module";
import path from "node:path";
import { Script } from "node:vm";
import type { transform as esbuildTransform } from "esbuild";
import type { ExecError, ExecOptions } from "./executor";
import { wrapProgram } from "./quickjs-runner";

export type ProgramSource = (code: string, language: ExecOptions["language"]) => Promise<{ source: string } | { error: ExecError }>;

/**
 * `language` "js": as written; "ts": types stripped, a SyntaxError (with the program's own line) when it does not
 * parse; none: JavaScript when it parses as such, else TypeScript, else as written (the VM reports its own error).
 */
export function programSource(moduleDir: string): ProgramSource {
  let transform: typeof esbuildTransform | undefined;
  const loadTransform = () => (transform ??= (createRequire(path.join(moduleDir, "package.json"))("esbuild") as { transform: typeof esbuildTransform }).transform);
  return async (code, language) => {
    const wrapped = wrapProgram(code);
    if (language === "js") return { source: wrapped };
    if (language === undefined && parsesAsJavaScript(wrapped)) return { source: wrapped };
    let strip: typeof esbuildTransform;
    try {
      strip = loadTransform();
    } catch (err) {
      if (language === undefined) return { source: wrapped };
      return { error: { name: "SandboxError", message: `TypeScript is unavailable: ${err instanceof Error ? err.message : "esbuild not found"}` } };
    }
    try {
      // The body is wrapped first, so top-level `return` and `await` parse; the output's completion value is the function.
      const out = await strip(wrapped, { loader: "ts", target: "es2023", logLevel: "silent" });
      return { source: out.code };
    } catch (err) {
      if (language === undefined) return { source: wrapped }; // not TypeScript: the VM reports its own SyntaxError
      const first = (err as { errors?: { text?: string; location?: { line?: number; column?: number } | null }[] }).errors?.[0];
      const where = first?.location ? ` (line ${String((first.location.line ?? 2) - 1)}, column ${String(first.location.column ?? 0)})` : "";
      return { error: { name: "SyntaxError", message: `${first?.text ?? "the TypeScript program does not parse"}${where}` } };
    }
  };
}

function parsesAsJavaScript(source: string): boolean {
  try {
    new Script(source);
    return true;
  } catch {
    return false;
  }
}

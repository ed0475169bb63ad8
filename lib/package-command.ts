// Recognises a stdio command that only fetches and runs a registry package (`npx -y pkg`, `uvx pkg`), so the
// console and the create API can offer it as a package server instead: installed once, launched read-only.
// Conservative: an option it does not know, a name that is not a plain registry name or a version that is not
// a plain range gives null (the command stays an ordinary stdio server).
import { isValidBinName, isValidPackageName, isValidPackageRange, type Ecosystem } from "./package-name";

export type RecognizedPackage = {
  ecosystem: Ecosystem;
  name: string;
  version: string;
  args: string[];
  /** The executable to run when the command names one apart from the package (`uvx --from pkg command`). */
  bin?: string;
};

const base = (command: string) => command.split(/[\\/]/).pop()!.replace(/\.(cmd|exe)$/i, "").toLowerCase();

/** `name@range` (npm; a scope's leading "@" is not the separator). */
function splitNpmSpec(spec: string): { name: string; version: string } | null {
  const at = spec.indexOf("@", 1);
  const name = at === -1 ? spec : spec.slice(0, at);
  const version = at === -1 ? "latest" : spec.slice(at + 1);
  return isValidPackageName("npm", name) && isValidPackageRange("npm", version) ? { name, version } : null;
}

/** `name`, `name==1.2.3`, `name>=1,<2` or uvx's `name@1.2.3`. */
function splitPypiSpec(spec: string): { name: string; version: string } | null {
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*?)(?:@([0-9][^\s]*)|((?:===?|!=|~=|<=?|>=?).*))?$/.exec(spec);
  if (!m) return null;
  const name = m[1]!;
  const version = m[2] ?? (m[3]?.startsWith("==") && !m[3].startsWith("===") && !m[3].includes(",") ? m[3].slice(2).trim() : m[3]) ?? "latest";
  return isValidPackageName("pypi", name) && isValidPackageRange("pypi", version) ? { name, version } : null;
}

/** Skips the "assume yes" options npx and npm exec take; null on any other option before the package. */
function afterYes(args: string[]): string[] | null {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) {
    if (args[i] === "--") return args.slice(i + 1);
    if (!["-y", "--yes", "-q", "--quiet"].includes(args[i]!)) return null;
    i++;
  }
  return args.slice(i);
}

function npmFrom(rest: string[] | null): RecognizedPackage | null {
  if (!rest || rest.length === 0) return null;
  const spec = splitNpmSpec(rest[0]!);
  return spec && { ecosystem: "npm", ...spec, args: rest.slice(1) };
}

function uvx(args: string[]): RecognizedPackage | null {
  if (args[0] === "--from") {
    // `uvx --from pkg[==v] command args`: the package and the executable it provides.
    const spec = args[1] !== undefined ? splitPypiSpec(args[1]) : null;
    const command = args[2];
    if (!spec || command === undefined || !isValidBinName(command)) return null;
    return { ecosystem: "pypi", ...spec, bin: command, args: args.slice(3) };
  }
  if (!args[0] || args[0].startsWith("-")) return null;
  const spec = splitPypiSpec(args[0]);
  return spec && { ecosystem: "pypi", ...spec, args: args.slice(1) };
}

export function recognizePackageCommand(command: string, args: string[]): RecognizedPackage | null {
  let cmd = command.trim();
  let rest = args;
  // The whole line typed into the command field: `npx -y pkg` (no quoting is honoured, so none may be needed).
  if (rest.length === 0 && /\s/.test(cmd)) {
    const words = cmd.split(/\s+/);
    cmd = words[0]!;
    rest = words.slice(1);
  }
  if ([cmd, ...rest].some((a) => a.includes("\0"))) return null;
  switch (base(cmd)) {
    case "npx":
      return npmFrom(afterYes(rest));
    case "pnpm":
      return rest[0] === "dlx" ? npmFrom(afterYes(rest.slice(1))) : null;
    case "npm":
      return rest[0] === "exec" || rest[0] === "x" ? npmFrom(afterYes(rest.slice(1))) : null;
    case "uvx":
      return uvx(rest);
    case "uv":
      return rest[0] === "tool" && rest[1] === "run" ? uvx(rest.slice(2)) : null;
    default:
      return null;
  }
}

// The package form of "Register a server" as a draft of strings, and its reading into the create body's
// `package` and `env`. The console checks what it can before sending (a name the registry could never hold);
// the API checks again and its 422 details are shown beside the fields.
import { isValidBinName, isValidPackageName, isValidPackageRange, type Ecosystem } from "@/lib/package-name";
import { parseKeyValueLines, parseLines } from "./key-value-lines";

export type { Ecosystem };
export type PackageDraft = {
  ecosystem: Ecosystem;
  name: string;
  /** A range or exact version; empty means latest. */
  version: string;
  bin: string;
  /** One argument per line. */
  args: string;
  /** KEY=VALUE lines. */
  env: string;
};
export type PackageBody = {
  transport: Ecosystem;
  package: { name: string; version?: string; bin?: string; args?: string[] };
  env: Record<string, string>;
};

export const emptyPackageDraft = (): PackageDraft => ({
  ecosystem: "npm",
  name: "",
  version: "",
  bin: "",
  args: "",
  env: "",
});

/** Why a package name cannot be one of the ecosystem's (the API's own rules), or null when it can. */
export function packageNameProblem(ecosystem: Ecosystem, name: string): string | null {
  if (!name) return "Package name is required.";
  if (isValidPackageName(ecosystem, name)) return null;
  return ecosystem === "npm"
    ? `“${name}” is not an npm package name: lower-case letters, digits, “-”, “.”, “_” and “~”, optionally under a @scope/ (at most 214 characters).`
    : `“${name}” is not a PyPI package name: letters, digits, “-”, “.” and “_”, starting and ending with a letter or digit.`;
}

function versionProblem(ecosystem: Ecosystem, version: string): string | null {
  if (!version || isValidPackageRange(ecosystem, version)) return null;
  return ecosystem === "npm"
    ? `“${version}” is not a version, range or tag npm installs from the registry (e.g. 1.2.3, ^1.2.0, latest).`
    : `“${version}” is not a PEP 440 version or specifier (e.g. 1.2.3, ==1.2.3, >=1,<2).`;
}

export function readPackage(d: PackageDraft): { body: PackageBody; errors: string[] } {
  const errors: string[] = [];
  const name = d.name.trim();
  const nameProblem = packageNameProblem(d.ecosystem, name);
  if (nameProblem) errors.push(nameProblem);
  const version = d.version.trim();
  const badVersion = versionProblem(d.ecosystem, version);
  if (badVersion) errors.push(badVersion);
  const bin = d.bin.trim();
  if (bin && !isValidBinName(bin))
    errors.push(`“${bin}” is not an executable name: a file name, not a path or an option.`);
  const args = parseLines(d.args);
  const env = parseKeyValueLines(d.env);
  errors.push(...env.errors.map((m) => `Environment, ${m}`));
  return {
    body: {
      transport: d.ecosystem,
      package: {
        name,
        ...(version && version !== "latest" && { version }),
        ...(bin && { bin }),
        ...(args.length > 0 && { args }),
      },
      env: env.values,
    },
    errors,
  };
}

// Package names and version ranges as the gateway accepts them from an admin. Only plain registry names and
// semver ranges / dist-tags: anything npm or uv would read as a file, a URL, a git remote, an alias or an
// option is refused here, before it reaches a command line.

/**
 * npm's naming rules (validate-npm-package-name, new packages): lower case, at most 214 characters, URL-safe
 * characters only, not starting with "." or "_", optionally one `@scope/`. ASCII only, so a look-alike letter
 * is simply not a valid name.
 */
const NPM_NAME_RE = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** PEP 508 / PEP 503 project names: letters, digits, ".", "_", "-", starting and ending with a letter or digit. */
const PYPI_NAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

export type Ecosystem = "npm" | "pypi";

export function isValidPackageName(ecosystem: Ecosystem, name: string): boolean {
  if (ecosystem === "pypi") return name.length <= 100 && PYPI_NAME_RE.test(name);
  if (name.length > 214 || !NPM_NAME_RE.test(name)) return false;
  // "node_modules" and "favicon.ico" are reserved; ".." cannot pass the pattern's first character anyway.
  const bare = name.replace(/^@[^/]+\//, "");
  return bare !== "node_modules" && bare !== "favicon.ico";
}

/**
 * npm: a semver version, range (`^1.2.0`, `>=1 <2`, `1.x`) or a dist-tag (`latest`, `next`). Characters of
 * ranges only: no ":" (file:, git+, npm: aliases, URLs), no "/" (paths, GitHub shorthands), no leading "-".
 * pypi: a PEP 440 version or a specifier list (`==1.2.3`, `>=1,<2`, `~=1.4`).
 */
const NPM_RANGE_RE = /^(?!-)[A-Za-z0-9.^~<>=|*+\- ]+$/;
const NPM_TAG_RE = /^[a-z][a-z0-9._-]*$/;
const PYPI_SPEC_RE = /^(?:(?:===?|!=|~=|<=?|>=?)?\s*[0-9][0-9A-Za-z.*+!-]*)(?:\s*,\s*(?:===?|!=|~=|<=?|>=?)\s*[0-9][0-9A-Za-z.*+!-]*)*$/;

export function isValidPackageRange(ecosystem: Ecosystem, range: string): boolean {
  if (range.length === 0 || range.length > 200) return false;
  if (ecosystem === "pypi") return range === "latest" || PYPI_SPEC_RE.test(range);
  return NPM_TAG_RE.test(range) || (NPM_RANGE_RE.test(range) && /[0-9x*]/.test(range));
}

/** A bin name of a package: a file name, not a path or an option. */
export function isValidBinName(bin: string): boolean {
  return /^[A-Za-z0-9@][A-Za-z0-9._@+-]{0,199}$/.test(bin) && bin !== "." && bin !== "..";
}

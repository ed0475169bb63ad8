// Types of scripts/server-bundle.mjs (plain JavaScript, so that scripts/portcullis.mjs can load it before tsx).
export const PROJECT_ROOT: string;
export function bundlePaths(root?: string): { dir: string; inputs: string };
export function buildServerBundle(options?: { root?: string; entry?: string }): Promise<string>;
export function currentBundle(root?: string): Promise<string | undefined>;
export function buildModule(options: { root?: string; entry: string; outFile: string }): Promise<string>;

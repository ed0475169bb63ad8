// The deployment artifacts (Dockerfile, deploy/compose.yaml, deploy/kubernetes/) checked statically: this
// machine has no container engine or cluster, so they are parsed and held to what production needs instead —
// pinned images, a non-root process on a read-only root file system, probes on /api/ready and /api/health,
// limits, a drain that fits the termination grace period, and the image's entrypoint being the real start command.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { loadConfig } from "../server/config";

const ROOT = path.resolve(import.meta.dirname, "..");
const K8S = path.join(ROOT, "deploy", "kubernetes");

type Obj = Record<string, unknown>;
const yamlDocs = (file: string): Obj[] => {
  const docs = parseAllDocuments(readFileSync(file, "utf8"));
  for (const d of docs) if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join("; ")}`);
  return docs.map((d) => d.toJS() as Obj).filter(Boolean);
};
const manifests = readdirSync(K8S)
  .filter((f) => f.endsWith(".yaml"))
  .flatMap((f) => yamlDocs(path.join(K8S, f)).map((doc) => ({ file: f, doc })));
const kind = (k: string) => manifests.filter((m) => m.doc.kind === k).map((m) => m.doc);
const one = (k: string): Obj => {
  const found = kind(k);
  expect(found, k).toHaveLength(1);
  return found[0]!;
};
const at = (o: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (v as Obj | undefined)?.[k], o);

type Container = { image: string; command?: string[]; resources?: Obj; securityContext?: Obj; readinessProbe?: Obj; livenessProbe?: Obj; startupProbe?: Obj; lifecycle?: Obj; envFrom?: Obj[] };
const podSpecs = () =>
  manifests
    .filter((m) => ["Deployment", "Job"].includes(m.doc.kind as string))
    .map((m) => ({ file: m.file, spec: at(m.doc, "spec", "template", "spec") as Obj & { containers: Container[]; securityContext?: Obj } }));

/** An image reference with an explicit version tag, never `latest`. */
const pinned = (image: string) => /^[\w./-]+(:\d[\w.-]*)$/.test(image) && !image.endsWith(":latest");

/** The Dockerfile's stages: name → its lines (instructions joined across `\` continuations). */
function dockerStages(): { args: Map<string, string>; stages: { from: string; name: string; lines: string[] }[] } {
  const text = readFileSync(path.join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const args = new Map<string, string>();
  const stages: { from: string; name: string; lines: string[] }[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ from: from[1]!, name: from[2] ?? "", lines: [] });
    else if (stages.length === 0 && /^ARG\s+(\w+)=(\S+)/.test(line)) {
      const [, k, v] = /^ARG\s+(\w+)=(\S+)/.exec(line)!;
      args.set(k!, v!);
    } else stages.at(-1)?.lines.push(line);
  }
  return { args, stages };
}

describe("deploy/kubernetes", () => {
  it("every manifest parses, and kustomization.yaml lists every file (and only files that exist)", () => {
    const files = readdirSync(K8S).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    const kustomization = yamlDocs(path.join(K8S, "kustomization.yaml"))[0]!;
    expect([...(kustomization.resources as string[])].sort()).toEqual([...files].sort());
    for (const m of manifests) expect(m.doc.apiVersion, m.file).toEqual(expect.any(String));
  });

  it("has a Deployment, Service, PodDisruptionBudget, HorizontalPodAutoscaler, migration Job, Secret and NetworkPolicy", () => {
    for (const k of ["Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler", "Job", "Secret", "NetworkPolicy", "ConfigMap"]) one(k);
  });

  it("every container: a pinned image, non-root, no privilege escalation, read-only root file system, all capabilities dropped, requests and limits", () => {
    const specs = podSpecs();
    expect(specs.length).toBe(2);
    for (const { file, spec } of specs) {
      expect(spec.securityContext, file).toMatchObject({ runAsNonRoot: true });
      expect(Number(at(spec.securityContext, "runAsUser")), file).toBeGreaterThan(0);
      expect(spec.automountServiceAccountToken, file).toBe(false);
      for (const c of spec.containers) {
        expect(pinned(c.image), `${file}: ${c.image}`).toBe(true);
        expect(c.securityContext, file).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } });
        for (const r of ["requests", "limits"]) for (const q of ["cpu", "memory"]) expect(at(c.resources, r, q), `${file} ${r}.${q}`).toBeDefined();
      }
    }
  });

  it("the Deployment: readiness on /api/ready, liveness and start-up on /api/health, a rollout that keeps capacity, and a drain that fits the grace period", () => {
    const d = one("Deployment");
    const spec = at(d, "spec", "template", "spec") as Obj & { containers: Container[]; terminationGracePeriodSeconds: number };
    const c = spec.containers[0]!;
    expect(at(c.readinessProbe, "httpGet", "path")).toBe("/api/ready");
    expect(at(c.livenessProbe, "httpGet", "path")).toBe("/api/health");
    expect(at(c.startupProbe, "httpGet", "path")).toBe("/api/health");
    expect(at(d, "spec", "strategy", "rollingUpdate", "maxUnavailable")).toBe(0);
    // The image's entrypoint runs; nothing overrides it with another command.
    expect(c.command).toBeUndefined();
    const configMap = one("ConfigMap").data as Record<string, string>;
    const preStopSeconds = Number((at(c.lifecycle, "preStop", "exec", "command") as string[])[1]);
    expect(preStopSeconds).toBeGreaterThan(0);
    expect(preStopSeconds * 1000 + Number(configMap.SHUTDOWN_GRACE_MS) + 5_000).toBeLessThanOrEqual(spec.terminationGracePeriodSeconds * 1000);
    // The secrets come from the Secret.
    const secret = one("Secret");
    expect(c.envFrom).toContainEqual({ secretRef: { name: at(secret, "metadata", "name") } });
    expect(Object.keys(secret.stringData as Obj).sort()).toEqual(["DATABASE_URL", "NEXTAUTH_SECRET", "SECRETS_KEY"]);
  });

  it("the ConfigMap's values are a valid configuration", () => {
    const data = one("ConfigMap").data as Record<string, string>;
    const config = loadConfig({ ...data, DATABASE_URL: "postgresql://u:p@db:5432/portcullis", NEXTAUTH_SECRET: "x".repeat(32), SECRETS_KEY: Buffer.alloc(32, 7).toString("base64") });
    expect(config.shutdownGraceMs).toBe(Number(data.SHUTDOWN_GRACE_MS));
    expect(config.publicUrl).toBe(data.PUBLIC_URL);
  });

  it("the migration Job runs the CLI's migrate command; the PodDisruptionBudget keeps fewer than the autoscaler's minimum", () => {
    const job = one("Job");
    const command = (at(job, "spec", "template", "spec", "containers") as Container[])[0]!.command!;
    expect(command).toEqual(["node", "scripts/portcullis.mjs", "migrate"]);
    expect(readFileSync(path.join(ROOT, "scripts", "cli.ts"), "utf8")).toContain('.command("migrate")');
    const min = Number(at(one("HorizontalPodAutoscaler"), "spec", "minReplicas"));
    expect(Number(at(one("PodDisruptionBudget"), "spec", "minAvailable"))).toBeLessThan(min);
  });

  it("the NetworkPolicy lets nothing reach the cloud metadata address", () => {
    const egress = at(one("NetworkPolicy"), "spec", "egress") as Obj[];
    const open = egress.flatMap((e) => ((e.to as Obj[] | undefined) ?? []).map((t) => t.ipBlock as { cidr: string; except?: string[] } | undefined)).filter(Boolean);
    for (const block of open) if (block!.cidr === "0.0.0.0/0") expect(block!.except).toContain("169.254.169.254/32");
  });
});

describe("Dockerfile", () => {
  const { args, stages } = dockerStages();
  const final = stages.at(-1)!;
  const resolve = (from: string) => from.replace(/\$\{(\w+)\}/g, (_, k: string) => args.get(k) ?? "");

  it("every stage starts from a pinned image", () => {
    for (const s of stages) if (!stages.some((o) => o.name === s.from)) expect(pinned(resolve(s.from)), s.from).toBe(true);
  });

  it("the final stage: production dependencies only, no build tools, a numeric non-root user, a health check", () => {
    const body = final.lines.join("\n");
    expect(body).not.toMatch(/npm (ci|install)(?![^\n]*--omit=dev)/);
    expect(body).not.toMatch(/\b(build-essential|gcc|g\+\+|make|python3|git)\b/);
    expect(body).toMatch(/COPY --from=prod-deps\S* [^\n]*\/app\/node_modules/);
    expect(body).not.toMatch(/COPY --from=(deps|build)\S* [^\n]*node_modules/);
    const user = final.lines.filter((l) => l.startsWith("USER ")).at(-1);
    expect(user).toMatch(/^USER [1-9]\d*:[1-9]\d*$/);
    expect(body).toMatch(/^HEALTHCHECK .*\/api\/health/m);
  });

  it("the final stage has the build's output: the console's (.next) and the server compiled ahead of time (.build, D177)", () => {
    const body = final.lines.join("\n");
    for (const dir of [".next", ".build"]) expect(body).toMatch(new RegExp(`^COPY --from=build[^\\n]* /app/\\${dir} \\./\\${dir}$`, "m"));
    const build = stages.find((s) => s.name === "build")!.lines.join("\n");
    expect(build).toMatch(/npm run build/);
  });

  it("the entrypoint is the real start command (package.json's start script)", () => {
    const entry = final.lines.find((l) => l.startsWith("ENTRYPOINT "))!;
    const argv = JSON.parse(entry.slice("ENTRYPOINT ".length)) as string[];
    const start = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
    expect(argv.slice(0, start.split(" ").length).join(" ")).toBe(start);
    expect(argv.slice(start.split(" ").length)).toEqual(["--no-build"]);
  });
});

describe("deploy/compose.yaml", () => {
  const compose = yamlDocs(path.join(ROOT, "deploy", "compose.yaml"))[0]!;
  const services = compose.services as Record<string, Obj>;

  it("pins its images, runs Portcullis read-only with the drain's grace, after PostgreSQL is healthy", () => {
    for (const s of Object.values(services)) if (s.image) expect(pinned(s.image as string), s.image as string).toBe(true);
    const p = services.portcullis!;
    expect(p.read_only).toBe(true);
    expect(at(p, "depends_on", "postgres", "condition")).toBe("service_healthy");
    const grace = Number(/^(\d+)s$/.exec(p.stop_grace_period as string)![1]) * 1000;
    expect(grace).toBeGreaterThan(Number(at(p, "environment", "SHUTDOWN_GRACE_MS")));
  });
});

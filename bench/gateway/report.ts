// Renders a run as Markdown and puts it into docs/benchmarks.md between the bench's markers.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import { writeDocsBlock } from "../docs-block";
import type { PhaseResult } from "./load";
import type { CpuProfileSummary } from "./cpu-profile";
import type { ProfileRow } from "./profile";

export const BEGIN = "<!-- bench:gateway:begin (written by bench/gateway/run.ts) -->";
export const END = "<!-- bench:gateway:end -->";

export type TargetKey = "direct" | "portcullis" | "proxy";
export type CpuPerCall = {
  gateway?: number | undefined;
  postgres?: number | undefined;
  upstream: number;
  driver: number;
};
export type Row = {
  target: TargetKey;
  label: string;
  concurrency: number;
  phase: PhaseResult;
  cpu: CpuPerCall;
  otherLoad: number;
};

export type CpuProfile = { calls: number; concurrency: number; summary: CpuProfileSummary };

export type RunInfo = {
  cpuProfile?: CpuProfile | undefined;
  fsyncMs: number;
  settings: string[];
  rows: Row[];
  profile?: ProfileRow[] | undefined;
  proxyNote: string;
  durationS: number;
};

/** The machine table every benchmark block starts with; `extra` rows follow the standard five. */
export function machineTable(m: Record<string, string>, extra: [string, string][] = []): string[] {
  const rows: [string, string][] = [["nproc", m.nproc!], ["CPU", m.cpu!], ["memory", m.memory!], ["Node", m.node!], ["OS", m.os!], ...extra];
  return ["| machine | |", "| --- | --- |", ...rows.map(([k, v]) => `| ${k} | ${v} |`)];
}

export function machineFacts(): Record<string, string> {
  const cpuinfo = existsSync("/proc/cpuinfo") ? readFileSync("/proc/cpuinfo", "utf8") : "";
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? "unknown";
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "server", "app", "lib", "prisma"], {
      encoding: "utf8",
    }).trim();
    if (dirty) commit += " + uncommitted changes under server/ app/ lib/ prisma/";
  } catch {
    /* not a git checkout */
  }
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    nproc: String(os.availableParallelism()),
    cpu: model,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    commit,
  };
}

const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? "–" : v < 10 ? v.toFixed(2) : v.toFixed(1));
const cpu = (v: number | undefined) => (v === undefined ? "–" : v.toFixed(2));

function find(rows: Row[], target: TargetKey, c: number) {
  return rows.find((r) => r.target === target && r.concurrency === c);
}

/** The headline numbers against the targets, one line each. */
export function ratios(rows: Row[]): string[] {
  const out: string[] = [];
  for (const c of [...new Set(rows.map((r) => r.concurrency))]) {
    const d = find(rows, "direct", c);
    const p = find(rows, "portcullis", c);
    const x = find(rows, "proxy", c);
    if (d && p) {
      const added = p.phase.latency.p50 - d.phase.latency.p50;
      out.push(
        `c=${c}: Portcullis p50 − direct p50 = **${added.toFixed(2)} ms** (target ≤ 1.5 ms: ${added <= 1.5 ? "met" : "**missed**"}); ` +
          `p99 ${(p.phase.latency.p99 - d.phase.latency.p99).toFixed(2)} ms over direct.`,
      );
    }
    if (p && x) {
      const ratio = p.phase.throughput / x.phase.throughput;
      out.push(
        `c=${c}: Portcullis throughput / proxy throughput = **${ratio.toFixed(2)}×** (${p.phase.throughput.toFixed(0)} vs ${x.phase.throughput.toFixed(0)} calls/s; target ≥ 1.00: ${ratio >= 1 ? "met" : "**missed**"}).`,
      );
    }
    if (p && d)
      out.push(
        `c=${c}: Portcullis throughput / direct throughput = ${(p.phase.throughput / d.phase.throughput).toFixed(2)}×.`,
      );
  }
  return out;
}

export function renderMarkdown(info: RunInfo): string {
  const facts = machineFacts();
  const lines: string[] = [];
  lines.push(`Run of ${facts.date} at commit ${facts.commit}, ${info.durationS.toFixed(0)} s in all.`, "");
  lines.push(...machineTable(facts), "");
  lines.push(...info.settings.map((s) => `- ${s}`), `- ${info.proxyNote}`, "");
  lines.push(
    "| path | c | calls | errors | p50 ms | p90 ms | p99 ms | max ms | calls/s | CPU ms/call: gateway | PostgreSQL | upstream | driver | other load |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const r of [...info.rows].sort((a, b) => a.concurrency - b.concurrency)) {
    const l = r.phase.latency;
    const calls = r.phase.timedOut
      ? `${r.phase.completed} of ${r.phase.requested} (time limit)`
      : String(r.phase.completed);
    lines.push(
      `| ${r.label} | ${r.concurrency} | ${calls} | ${r.phase.errors} | ${ms(l.p50)} | ${ms(l.p90)} | ${ms(l.p99)} | ${ms(l.max)} | ${r.phase.throughput.toFixed(0)} | ${cpu(r.cpu.gateway)} | ${cpu(r.cpu.postgres)} | ${cpu(r.cpu.upstream)} | ${cpu(r.cpu.driver)} | ${(r.otherLoad * 100).toFixed(0)} % |`,
    );
  }
  const noisy = info.rows.filter((r) => r.otherLoad > 0.1);
  if (noisy.length) {
    lines.push(
      "",
      `**Warning:** other processes used more than 10 % of the machine during ${noisy.map((r) => `${r.label} c=${r.concurrency}`).join(", ")}; those rows are skewed.`,
    );
  }
  const errs = info.rows.filter((r) => r.phase.firstError);
  if (errs.length)
    lines.push("", ...errs.map((r) => `- first error, ${r.label} c=${r.concurrency}: \`${r.phase.firstError}\``));
  lines.push("", ...ratios(info.rows).map((s) => `- ${s}`));
  if (info.profile?.length) {
    lines.push(
      "",
      "Where a Portcullis call spends its time (each piece alone, in the gateway's process, with no benchmark load; one call at a time unless the row says otherwise):",
      "",
    );
    lines.push(
      "| step | what | SQL statements | p50 ms | mean ms | p99 ms |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
    );
    for (const p of info.profile) {
      lines.push(
        `| ${p.step} | ${p.what} | ${p.statements ?? "–"} | ${ms(p.summary.p50)} | ${ms(p.summary.mean)} | ${ms(p.summary.p99)} |`,
      );
    }
  }
  if (info.cpuProfile) {
    const { calls, concurrency, summary } = info.cpuProfile;
    lines.push(
      "",
      `Where the Portcullis process spends its CPU, by where the code lives (V8 sampling profiler over a separate pass of ${calls} calls at c=${concurrency}; ` +
        `shares of the sampled busy time, ${summary.busyMs.toFixed(0)} ms):`,
      "",
      "| where | share |",
      "| --- | ---: |",
      ...summary.byPlace.filter((p) => p.share >= 0.01).map((p) => `| ${p.place} | ${(p.share * 100).toFixed(1)} % |`),
      "",
      "Top functions by self time:",
      "",
      "| function | where | share |",
      "| --- | --- | ---: |",
      ...summary.topFunctions.map(
        (f) => `| \`${f.fn.replace(/\|/g, "\\|")}\` | ${f.place} | ${(f.share * 100).toFixed(1)} % |`,
      ),
    );
  }
  return lines.join("\n");
}

/** Replaces the block between the markers (or appends a section with them). */
export function writeDocs(file: string, markdown: string): void {
  writeDocsBlock(file, { begin: BEGIN, end: END, heading: "Gateway (bench/gateway)" }, markdown);
}

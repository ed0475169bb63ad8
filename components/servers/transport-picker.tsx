"use client";
import type { TServer } from "@/lib/schemas";

export type Transport = TServer["transport"];
/** What "Register a server" asks for: one "Package" choice covers both package ecosystems. */
export type TransportChoice = "stdio" | "http" | "sse" | "package";

export const TRANSPORT_LABEL: Record<Transport, string> = {
  stdio: "stdio",
  http: "HTTP",
  sse: "SSE",
  npm: "npm package",
  pypi: "PyPI package",
  builtin: "built-in",
};

const OPTIONS: { value: TransportChoice; title: string; text: string }[] = [
  { value: "stdio", title: "stdio", text: "A program the gateway starts" },
  { value: "package", title: "Package", text: "From npm or PyPI, installed once" },
  { value: "http", title: "Streamable HTTP", text: "A URL, MCP over HTTP" },
  { value: "sse", title: "SSE", text: "A URL, the older HTTP+SSE" },
];

export function TransportPicker({
  value,
  onChange,
}: {
  value: TransportChoice;
  onChange: (t: TransportChoice) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Transport</legend>
      <div className="mt-1 grid grid-cols-2 gap-2">
        {OPTIONS.map((o) => (
          <label
            key={o.value}
            className={`flex cursor-pointer items-start gap-2 rounded-md px-3 py-2 text-sm ring-1 ring-inset has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600 ${
              value === o.value ? "bg-indigo-50 ring-indigo-600" : "bg-white ring-slate-300 hover:bg-slate-50"
            }`}
          >
            <input
              type="radio"
              name="transport"
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="mt-0.5 accent-indigo-600"
            />
            <span>
              <span className="block font-medium text-slate-900">{o.title}</span>
              <span className="block text-xs text-slate-500">{o.text}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

// What a program can reach and what bounds it: the same sandbox and pipeline an agent gets on /mcp/code.
import { card } from "@/components/ui";

const code = "rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.8125rem] text-slate-800 break-words";

export function PlaygroundHelp() {
  return (
    <section aria-labelledby="help-heading" className={`${card} min-w-0 p-5 text-sm text-slate-600`}>
      <h2 id="help-heading" className="text-base font-semibold text-slate-900">
        How programs work
      </h2>
      <dl className="mt-3 space-y-3">
        <div>
          <dt className="font-medium text-slate-800">Tools</dt>
          <dd className="mt-1">
            <code className={code}>await tools.server.tool(args)</code> calls a tool through the gateway, with one object of arguments; a name that
            is not an identifier is quoted, as in <code className={code}>tools.everything[&quot;get-sum&quot;]</code>. A tool with an output schema
            resolves to its structured content, any other to the MCP result. Every call passes the policies, is audited, and is listed below the
            run; a refused call throws <code className={code}>ToolCallRefused</code> and a held one <code className={code}>ApprovalRequired</code>.
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Workspace</dt>
          <dd className="mt-1">
            <code className={code}>workspace.get/set/list/delete</code> keep JSON values under keys (64 KiB each, 1,000 keys) between runs. They are
            yours: your agents&apos; programs share them.
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Skills</dt>
          <dd className="mt-1">
            <code className={code}>skills.save(name, code, description)</code> keeps a program to run again with{" "}
            <code className={code}>skills.run(name, input)</code>; <code className={code}>get</code>, <code className={code}>list</code> and{" "}
            <code className={code}>delete</code> manage them.
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Limits</dt>
          <dd className="mt-1">
            A run has no network or file access. It stops at its timeout (the gateway&apos;s limit is 30 s unless your operator changed it), at
            64 MiB of memory or after 100 tool calls, and its logs and returned value are cut at 20 KiB each. TypeScript is stripped of its types before it
            runs, not checked.
          </dd>
        </div>
      </dl>
    </section>
  );
}

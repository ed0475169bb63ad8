"use client";
// One audit event and the story of its request: every event of the request and of its approval and task,
// oldest first (what was asked, what the policy decided, who approved, how the call ended), with links to the
// approval and the task.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { isApiError } from "@/components/api-client";
import { DetailFields, DetailUnavailable, type DetailField } from "@/components/detail-fields";
import { formatDateTime } from "@/components/format";
import { AuditIcon } from "@/components/icons";
import { PageHeader } from "@/components/page-header";
import { Breadcrumbs } from "@/components/servers/breadcrumbs";
import { Tag } from "@/components/tools/tier-badge";
import { card } from "@/components/ui";
import type { TAuditEvent, TAuditEventDetail } from "@/lib/audit-schemas";
import { APPROVAL_STATUS_LABEL, APPROVER_DECISION_LABEL, labelOf, TASK_ORIGIN_LABEL, TASK_STATUS_LABEL } from "@/lib/status-labels";
import { auditEventKey, auditHref, getAuditEvent } from "./audit-api";
import { DECISION_LABEL, formatMs, statusOf } from "./audit-format";

const AUDIT = { href: "/audit", label: "Audit" };

export function AuditEventDetail({ id }: { id: string }) {
  const query = useQuery({
    queryKey: auditEventKey(id),
    queryFn: ({ signal }) => getAuditEvent(id, signal),
    retry: (count, err) => !(isApiError(err) && err.status === 404) && count < 2,
  });
  if (!query.data) {
    return (
      <DetailUnavailable
        crumbs={[AUDIT, { label: `Event ${id}` }]}
        what="the event"
        error={query.error}
        retry={query.refetch}
        icon={<AuditIcon className="h-6 w-6" />}
        missingTitle="There is no such audit event"
        back={{ href: "/audit", label: "Back to the audit log" }}
      >
        <p>It may have been deleted after the audit retention period.</p>
      </DetailUnavailable>
    );
  }
  return <EventPage detail={query.data} />;
}

export function EventPage({ detail }: { detail: TAuditEventDetail }) {
  const e = detail.event;
  const status = statusOf(e.status);
  return (
    <>
      <Breadcrumbs items={[AUDIT, { label: `Event ${e.id}` }]} />
      <PageHeader
        title={e.toolName ?? e.action}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
            <Tag tone={status.tone}>{status.label}</Tag>
            <span>{e.action}</span>
            <time dateTime={e.occurredAt}>{formatDateTime(e.occurredAt)}</time>
          </span>
        }
      />
      <div className="grid min-w-0 grid-cols-1 gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <Summary e={e} />
          <section aria-labelledby="story-heading" className={`${card} min-w-0 p-5`} data-testid="audit-story">
            <h2 id="story-heading" className="text-base font-semibold text-slate-900">
              The request, step by step
            </h2>
            <p className="mt-1 text-xs text-slate-500">
              Every event of request <code className="font-mono break-all">{e.requestId ?? "—"}</code>
              {(detail.approval || detail.task) && " and of its approval and task"}, oldest first.
            </p>
            <ol className="mt-4 space-y-4">
              {detail.story.map((s) => (
                <StoryStep key={s.id} s={s} current={s.id === e.id} />
              ))}
            </ol>
          </section>
        </div>
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          {detail.approval && <ApprovalCard a={detail.approval} />}
          {detail.task && <TaskCard task={detail.task} />}
          {!detail.approval && !detail.task && (
            <section className={`${card} p-5 text-sm text-slate-600`}>This request had no approval and did not run as a task.</section>
          )}
        </div>
      </div>
    </>
  );
}

function Summary({ e }: { e: TAuditEvent }) {
  const items: DetailField[] = [
    ["User", <span key="u" className="break-all">{e.userEmail ?? e.userId ?? (e.actorType === "system" ? "system" : "—")}</span>],
    ["Agent", e.agentId ?? "—"],
    ["Agent session", <span key="s" className="font-mono text-xs break-all">{e.sessionId ?? "—"}</span>],
    ["Server", e.serverSlug ?? "—"],
    ["Endpoint", e.endpoint ?? "—"],
    ["Decision", e.decision ? labelOf(DECISION_LABEL, e.decision) : "—"],
    ["Rule", e.ruleId ?? "—"],
    ["Error code", e.errorCode ? <code key="c" className="font-mono text-xs text-red-700">{e.errorCode}</code> : "—"],
    ["Duration", formatMs(e.durationMs)],
    ["Result size", e.resultBytes === null ? "—" : `${e.resultBytes.toLocaleString("en-US")} bytes${e.truncated ? " (cut)" : ""}`],
    ["Upstream version", e.upstreamVersion ?? "—"],
    ["IP", e.ip ?? "—"],
  ];
  return (
    <section aria-label="Summary" className={`${card} p-5`} data-testid="audit-summary">
      <DetailFields
        items={items}
        className="grid grid-cols-2 gap-x-6 gap-y-4 text-sm sm:grid-cols-[repeat(auto-fill,minmax(11rem,1fr))]"
        valueClassName="mt-1 break-words text-slate-900"
      />
      {e.reason && (
        <p className="mt-4 text-sm break-words text-slate-700">
          <span className="text-slate-500">Reason: </span>
          {e.reason}
        </p>
      )}
    </section>
  );
}

function StoryStep({ s, current }: { s: TAuditEvent; current: boolean }) {
  const status = statusOf(s.status);
  const facts = [
    s.decision && `decision ${labelOf(DECISION_LABEL, s.decision)}`,
    s.ruleId && `rule ${s.ruleId}`,
    s.errorCode && `error ${s.errorCode}`,
    s.durationMs !== null && formatMs(s.durationMs),
    s.userEmail ?? (s.actorType === "system" ? "system" : null),
    s.agentId && `agent ${s.agentId}`,
  ].filter(Boolean);
  return (
    <li
      className={`min-w-0 rounded-md border p-3 ${current ? "border-indigo-300 bg-indigo-50/50" : "border-slate-200"}`}
      data-testid="audit-story-step"
      data-id={s.id}
      data-action={s.action}
      aria-current={current ? "step" : undefined}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <time dateTime={s.occurredAt} className="text-xs text-slate-500 tabular-nums">
          {formatDateTime(s.occurredAt)}
        </time>
        {current ? (
          <span className="font-mono font-medium text-slate-900">{s.action}</span>
        ) : (
          <Link href={auditHref(s.id)} className="font-mono font-medium text-indigo-700 hover:underline">
            {s.action}
          </Link>
        )}
        <Tag tone={status.tone}>{status.label}</Tag>
        {current && <span className="text-xs text-indigo-700">this event</span>}
      </div>
      {facts.length > 0 && <p className="mt-1 text-xs break-words text-slate-600">{facts.join(" · ")}</p>}
      {s.reason && <p className="mt-1 text-xs break-words text-slate-700">{s.reason}</p>}
      {s.intent !== null ? (
        <div className="mt-2 grid min-w-0 grid-cols-1 gap-2 md:grid-cols-2" data-testid="audit-intent">
          <Json title="What the agent said it intends" value={s.intent} />
          <Json title="Arguments executed" value={s.arguments} />
        </div>
      ) : (
        s.arguments !== null && <Json title="Arguments" value={s.arguments} />
      )}
    </li>
  );
}

function Json({ title, value }: { title: string; value: unknown }) {
  return (
    <div className="mt-2 min-w-0">
      <p className="text-xs font-medium text-slate-500">{title}</p>
      <pre className="mt-1 max-h-64 overflow-auto rounded-md bg-slate-900 p-2.5 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-100" tabIndex={0} data-testid="audit-arguments">
        {typeof value === "string" ? value : JSON.stringify(value, null, 2)}
      </pre>
    </div>
  );
}

function ApprovalCard({ a }: { a: NonNullable<TAuditEventDetail["approval"]> }) {
  return (
    <RelatedCard
      name="approval"
      title="Approval"
      fields={[
        ["Status", labelOf(APPROVAL_STATUS_LABEL, a.status)],
        ["Asked by", <span key="r" className="break-all">{a.requesterEmail}</span>],
        ["Asked", formatDateTime(a.createdAt)],
        ["Decided", formatDateTime(a.decidedAt, "Not yet")],
      ]}
      href={`/approvals/${encodeURIComponent(a.id)}`}
      linkLabel="Open the approval →"
    >
      {a.justification && <p className="mt-3 text-sm break-words text-slate-700">“{a.justification}”</p>}
      {a.decisions.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm text-slate-700">
          {a.decisions.map((d) => (
            <li key={`${d.approverEmail}-${d.at}`} className="break-words">
              {labelOf(APPROVER_DECISION_LABEL, d.decision)} by {d.approverEmail} · {formatDateTime(d.at)}
              {d.comment && <span className="text-slate-500"> — {d.comment}</span>}
            </li>
          ))}
        </ul>
      )}
    </RelatedCard>
  );
}

function TaskCard({ task }: { task: NonNullable<TAuditEventDetail["task"]> }) {
  return (
    <RelatedCard
      name="task"
      title="Task"
      fields={[
        ["Status", labelOf(TASK_STATUS_LABEL, task.status)],
        ["How it became a task", labelOf(TASK_ORIGIN_LABEL, task.origin)],
        ["Error code", <span key="c" className="font-mono text-xs">{task.errorCode ?? "—"}</span>],
        ["Started", formatDateTime(task.startedAt, "Not yet")],
        ["Finished", formatDateTime(task.finishedAt, "Not yet")],
      ]}
      href={`/tasks/${encodeURIComponent(task.id)}`}
      linkLabel="Open the task →"
    />
  );
}

/** The request's approval or task, in brief, with a link to its own page. */
function RelatedCard({
  name,
  title,
  fields,
  href,
  linkLabel,
  children,
}: {
  name: "approval" | "task";
  title: string;
  fields: readonly DetailField[];
  href: string;
  linkLabel: string;
  children?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={`${name}-heading`} className={`${card} min-w-0 p-5`} data-testid={`audit-${name}`}>
      <h2 id={`${name}-heading`} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <DetailFields items={fields} className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 text-sm" valueClassName="mt-1" />
      {children}
      <p className="mt-4">
        <Link href={href} className="text-sm font-medium text-indigo-700 hover:underline" data-testid={`audit-${name}-link`}>
          {linkLabel}
        </Link>
      </p>
    </section>
  );
}

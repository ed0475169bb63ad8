-- CreateIndex
CREATE INDEX "audit_events_agentId_occurredAt_idx" ON "audit_events"("agentId", "occurredAt");

-- CreateIndex
CREATE INDEX "audit_events_serverSlug_occurredAt_idx" ON "audit_events"("serverSlug", "occurredAt");

-- CreateIndex
CREATE INDEX "audit_events_status_occurredAt_idx" ON "audit_events"("status", "occurredAt");

-- CreateIndex
CREATE INDEX "audit_events_decision_occurredAt_idx" ON "audit_events"("decision", "occurredAt");

-- Full-text filter of the audit search (server/audit/audit-search.ts): a case-insensitive substring match on
-- the tool name, the (redacted) arguments and the reason, served by a trigram index. The expression must stay
-- identical to SEARCH_TEXT_SQL in audit-search.ts, or the index is not used.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "audit_events_search_trgm_idx" ON "audit_events"
  USING gin ((coalesce("toolName", '') || ' ' || coalesce("arguments"::text, '') || ' ' || coalesce("reason", '')) gin_trgm_ops);

-- Append-only: the application inserts audit events and never changes them. UPDATE is always refused, DELETE
-- only in a transaction of the retention job, which sets `SET LOCAL portcullis.audit_retention = 'on'`
-- (server/audit/audit-retention.ts). TRUNCATE (tests, an operator) is not a row change and is not blocked.
-- The body is an E'' string with each semicolon written as \073: Prisma's driver-adapter migration runner
-- splits a script at every semicolon character (even inside strings), and this file has to run there too.
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' AND coalesce(current_setting(''portcullis.audit_retention'', true), '''') = ''on'' THEN
    RETURN NULL\073
  END IF\073
  RAISE EXCEPTION ''audit_events is append-only: % is not allowed%'', TG_OP,
    CASE WHEN TG_OP = ''DELETE'' THEN '' outside the retention job (SET LOCAL portcullis.audit_retention = ''''on'''')'' ELSE '''' END
    USING ERRCODE = ''insufficient_privilege''\073
END\073
';

CREATE TRIGGER "audit_events_append_only"
  BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();

-- The story of a request on the event page also gathers the events of its approval and its task, which carry
-- other request ids (approver decisions, task transitions). Few events have either, so the indexes are partial.
CREATE INDEX "audit_events_approvalId_idx" ON "audit_events" ("approvalId") WHERE "approvalId" IS NOT NULL;
CREATE INDEX "audit_events_taskId_idx" ON "audit_events" ("taskId") WHERE "taskId" IS NOT NULL;

-- A tool call's event is committed in two steps (server/audit/audit-owner.ts): its request record (status
-- `started`) while the call runs, then its outcome into the same row. The append-only guard stays for
-- everything else: DELETE only in the retention job (statement trigger, unchanged function), and UPDATE only
-- of a row whose status is `started` (or `interrupted`, set by the sweep for a process that died: an outcome
-- replayed from a spool may still arrive), to a final status, leaving who called what, when and with which
-- arguments as they were. The UPDATE guard is a row trigger: INSERT ... ON CONFLICT DO UPDATE fires statement
-- UPDATE triggers even when it updates nothing, so the statement form would refuse every insert.
-- The body is an E'' string with each semicolon written as \073 (see 20261130234250_audit_search).
DROP TRIGGER "audit_events_append_only" ON "audit_events";

CREATE TRIGGER "audit_events_append_only"
  BEFORE DELETE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();

CREATE FUNCTION "audit_events_outcome_only"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF OLD."status" IN (''started'', ''interrupted'') AND NEW."status" <> ''started''
    AND (NEW."id", NEW."eventId", NEW."occurredAt", NEW."requestId", NEW."action", NEW."actorType", NEW."userId",
         NEW."agentId", NEW."sessionId", NEW."mcpSessionId", NEW."endpoint", NEW."serverSlug", NEW."toolName",
         NEW."targetType", NEW."targetId", NEW."arguments"::text, NEW."intent", NEW."ip", NEW."parentId")
    IS NOT DISTINCT FROM
        (OLD."id", OLD."eventId", OLD."occurredAt", OLD."requestId", OLD."action", OLD."actorType", OLD."userId",
         OLD."agentId", OLD."sessionId", OLD."mcpSessionId", OLD."endpoint", OLD."serverSlug", OLD."toolName",
         OLD."targetType", OLD."targetId", OLD."arguments"::text, OLD."intent", OLD."ip", OLD."parentId") THEN
    RETURN NEW\073
  END IF\073
  RAISE EXCEPTION ''audit_events is append-only: UPDATE is not allowed (only a started call''''s outcome may complete its row)''
    USING ERRCODE = ''insufficient_privilege''\073
END\073
';

CREATE TRIGGER "audit_events_outcome_only"
  BEFORE UPDATE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_outcome_only"();

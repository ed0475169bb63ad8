-- The claim of an ordinary call (server/tasks/call-claims.ts, D103) as one function: the advisory lock, then
-- the claim row unless an identical call is still running or within the dedupe window. Called as a single
-- prepared statement, it is one round trip with a cached plan instead of a four-statement string parsed and
-- planned on every call. Run in its own implicit transaction, so the transaction-scoped lock ends with it. Each
-- statement of a plpgsql function takes a fresh snapshot (READ COMMITTED), so the look after the lock sees every
-- claim committed before the lock was granted. The body is an E string whose semicolons are written as octal
-- 073 escapes, since the migration runner splits statements at every semicolon.
CREATE FUNCTION portcullis_claim_call(
  p_lock_class int, p_lock_key int, p_id text, p_owner text, p_session text, p_tool_id text, p_tool text,
  p_arguments jsonb, p_hash text, p_retryable boolean, p_max_attempts int, p_request text, p_endpoint text,
  p_runner text, p_now timestamp, p_since timestamp
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS E'
BEGIN
  PERFORM pg_advisory_xact_lock(p_lock_class, p_lock_key)\073
  INSERT INTO tasks ("id", "status", "ownerId", "agentSessionId", "toolId", "toolName", "arguments", "argumentsHash",
    "retryable", "maxAttempts", "requestId", "endpoint", "origin", "runnerId", "startedAt", "attempts", "createdAt", "updatedAt")
  SELECT p_id, ''RUNNING'', p_owner, p_session, p_tool_id, p_tool, p_arguments, p_hash, p_retryable, p_max_attempts,
    p_request, p_endpoint, ''claim'', p_runner, p_now, 1, p_now, p_now
  WHERE NOT EXISTS (SELECT 1 FROM tasks WHERE "agentSessionId" = p_session AND "argumentsHash" = p_hash
    AND "toolName" = p_tool AND "createdAt" >= p_since AND status IN (''PENDING'', ''RUNNING'', ''SUCCEEDED''))\073
  RETURN FOUND\073
END
';

-- The claim of an ordinary call moves out of tasks into a table of its own (server/tasks/call-claims.ts): one
-- primary key entry per call instead of a tasks row with five indexes and jsonb arguments, claimed with one
-- INSERT ON CONFLICT DO NOTHING and no advisory lock. UNLOGGED since a claim need not outlive a PostgreSQL
-- crash, which ends its call anyway (Prisma does not track table persistence, so no drift is reported).
-- CreateTable
CREATE UNLOGGED TABLE "call_claims" (
    "agentSessionId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "argumentsHash" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "taskId" TEXT,
    "runnerId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "toolId" TEXT,
    "arguments" TEXT NOT NULL,
    "retryable" BOOLEAN NOT NULL,
    "maxAttempts" INTEGER NOT NULL,
    "requestId" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "call_claims_pkey" PRIMARY KEY ("agentSessionId","toolName","argumentsHash")
);

-- Claims still in tasks from a gateway of the previous version are deleted by its sweep or by this one (the
-- sweep deletes any claim origin row of a dead runner). The claim function of D103 is no longer called.
DROP FUNCTION IF EXISTS portcullis_claim_call(int, int, text, text, text, text, text, jsonb, text, boolean, int, text, text, text, timestamp, timestamp);

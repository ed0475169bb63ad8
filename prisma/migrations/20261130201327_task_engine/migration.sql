-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "endpoint" TEXT,
ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'async',
ADD COLUMN     "requestId" TEXT,
ADD COLUMN     "resultBytes" INTEGER,
ADD COLUMN     "retryable" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "runnerId" TEXT,
ADD COLUMN     "workerId" TEXT;

-- CreateIndex
CREATE INDEX "tasks_agentSessionId_argumentsHash_createdAt_idx" ON "tasks"("agentSessionId", "argumentsHash", "createdAt");

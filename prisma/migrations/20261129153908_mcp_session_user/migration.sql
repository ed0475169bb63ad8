-- AlterTable
ALTER TABLE "mcp_sessions" ADD COLUMN     "userId" TEXT;

-- CreateIndex
CREATE INDEX "mcp_sessions_userId_idx" ON "mcp_sessions"("userId");

-- CreateTable
CREATE TABLE "mcp_stream_events" (
    "id" BIGSERIAL NOT NULL,
    "mcpSessionId" TEXT NOT NULL,
    "streamId" TEXT NOT NULL,
    "message" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_stream_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mcp_stream_events_streamId_id_idx" ON "mcp_stream_events"("streamId", "id");

-- CreateIndex
CREATE INDEX "mcp_stream_events_createdAt_idx" ON "mcp_stream_events"("createdAt");

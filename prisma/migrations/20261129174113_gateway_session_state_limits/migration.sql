-- AlterTable
ALTER TABLE "mcp_sessions" ADD COLUMN     "state" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "upstream_servers" ADD COLUMN     "rateLimitPerMinute" INTEGER;

-- AlterTable
ALTER TABLE "server_versions" ADD COLUMN     "activatedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "tools" ADD COLUMN     "rateLimitPerMinute" INTEGER;

-- AlterTable
ALTER TABLE "upstream_servers" ADD COLUMN     "changedDefinitionCalls" TEXT NOT NULL DEFAULT 'refuse';

-- AlterTable
ALTER TABLE "server_versions" ADD COLUMN     "launch" JSONB NOT NULL DEFAULT '{}';

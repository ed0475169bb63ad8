-- AlterTable
ALTER TABLE "upstream_servers" ADD COLUMN     "taskCredentials" JSONB;

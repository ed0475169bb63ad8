-- AlterTable
ALTER TABLE "upstream_servers" ADD COLUMN     "summary" TEXT;

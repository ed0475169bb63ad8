-- AlterTable
ALTER TABLE "tools" ADD COLUMN     "requiredApprovals" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "tools" ADD COLUMN     "exampleRequests" TEXT[] DEFAULT ARRAY[]::TEXT[];

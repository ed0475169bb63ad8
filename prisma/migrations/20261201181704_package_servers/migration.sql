-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "Transport" ADD VALUE 'NPM';
ALTER TYPE "Transport" ADD VALUE 'PYPI';

-- AlterTable
ALTER TABLE "upstream_servers" ADD COLUMN     "connectTimeoutMs" INTEGER NOT NULL DEFAULT 15000,
ADD COLUMN     "packageBin" TEXT,
ADD COLUMN     "packageInstalledAt" TIMESTAMP(3),
ADD COLUMN     "packageIntegrity" TEXT,
ADD COLUMN     "packageName" TEXT,
ADD COLUMN     "packageRange" TEXT,
ADD COLUMN     "packageVersion" TEXT,
ADD COLUMN     "phase" TEXT;

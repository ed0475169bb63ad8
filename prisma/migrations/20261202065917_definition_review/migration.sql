-- AlterTable
ALTER TABLE "upstream_servers" ADD COLUMN     "definitionReview" TEXT NOT NULL DEFAULT 'trust_on_first_use';

-- AlterTable
ALTER TABLE "server_versions" ADD COLUMN     "findings" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "review" TEXT NOT NULL DEFAULT 'approved',
ADD COLUMN     "reviewedAt" TIMESTAMP(3),
ADD COLUMN     "reviewedBy" TEXT;

-- CreateIndex
CREATE INDEX "server_versions_review_idx" ON "server_versions"("review");

-- CreateTable
CREATE TABLE "tool_embeddings" (
    "providerId" TEXT NOT NULL,
    "textHash" TEXT NOT NULL,
    "vector" BYTEA,
    "dimensions" INTEGER NOT NULL DEFAULT 0,
    "claimedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_embeddings_pkey" PRIMARY KEY ("providerId","textHash")
);

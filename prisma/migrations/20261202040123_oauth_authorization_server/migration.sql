-- CreateTable
CREATE TABLE "oauth_records" (
    "model" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grantId" TEXT,
    "uid" TEXT,
    "consumedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_records_pkey" PRIMARY KEY ("model","id")
);

-- CreateTable
CREATE TABLE "oauth_signing_keys" (
    "kid" TEXT NOT NULL,
    "publicJwk" JSONB NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "iv" BYTEA NOT NULL,
    "authTag" BYTEA NOT NULL,
    "keyId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMP(3),

    CONSTRAINT "oauth_signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE INDEX "oauth_records_grantId_idx" ON "oauth_records"("grantId");

-- CreateIndex
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records"("uid");

-- CreateIndex
CREATE INDEX "oauth_records_expiresAt_idx" ON "oauth_records"("expiresAt");

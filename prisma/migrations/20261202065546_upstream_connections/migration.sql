-- AlterTable
ALTER TABLE "upstream_servers" ADD COLUMN     "authConfig" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "authMode" TEXT NOT NULL DEFAULT 'none';

-- CreateTable
CREATE TABLE "upstream_connections" (
    "id" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "userId" TEXT,
    "owner" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "account" TEXT,
    "scopes" TEXT[],
    "expiresAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "status" TEXT NOT NULL DEFAULT 'connected',
    "lastError" TEXT,
    "accessSecretId" TEXT,
    "refreshSecretId" TEXT,
    "clientId" TEXT NOT NULL,
    "registration" TEXT NOT NULL,
    "generation" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "upstream_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "upstream_authorizations" (
    "stateHash" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "registration" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "resource" TEXT,
    "scopes" TEXT[],
    "verifierSecretId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upstream_authorizations_pkey" PRIMARY KEY ("stateHash")
);

-- CreateIndex
CREATE INDEX "upstream_connections_userId_idx" ON "upstream_connections"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "upstream_connections_serverId_owner_key" ON "upstream_connections"("serverId", "owner");

-- CreateIndex
CREATE INDEX "upstream_authorizations_expiresAt_idx" ON "upstream_authorizations"("expiresAt");

-- AddForeignKey
ALTER TABLE "upstream_connections" ADD CONSTRAINT "upstream_connections_serverId_fkey" FOREIGN KEY ("serverId") REFERENCES "upstream_servers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "upstream_connections" ADD CONSTRAINT "upstream_connections_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "upstream_authorizations" ADD CONSTRAINT "upstream_authorizations_serverId_fkey" FOREIGN KEY ("serverId") REFERENCES "upstream_servers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "upstream_authorizations" ADD CONSTRAINT "upstream_authorizations_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

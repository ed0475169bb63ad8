-- CreateTable
CREATE TABLE "oauth_blocked_clients" (
    "clientId" TEXT NOT NULL,
    "blockedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "blockedBy" TEXT,
    "reason" TEXT,

    CONSTRAINT "oauth_blocked_clients_pkey" PRIMARY KEY ("clientId")
);

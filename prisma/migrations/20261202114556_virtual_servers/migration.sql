-- CreateEnum
CREATE TYPE "VirtualMemberKind" AS ENUM ('TOOL', 'PROMPT', 'RESOURCE');

-- AlterTable
ALTER TABLE "agent_sessions" ADD COLUMN     "virtualServerId" TEXT;

-- CreateTable
CREATE TABLE "virtual_servers" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "instructions" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "virtual_servers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "virtual_server_members" (
    "id" TEXT NOT NULL,
    "virtualServerId" TEXT NOT NULL,
    "kind" "VirtualMemberKind" NOT NULL,
    "serverSlug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "exposedName" TEXT,
    "description" TEXT,
    "position" INTEGER NOT NULL,

    CONSTRAINT "virtual_server_members_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "virtual_servers_name_key" ON "virtual_servers"("name");

-- CreateIndex
CREATE UNIQUE INDEX "virtual_server_members_virtualServerId_kind_serverSlug_name_key" ON "virtual_server_members"("virtualServerId", "kind", "serverSlug", "name");

-- AddForeignKey
ALTER TABLE "virtual_server_members" ADD CONSTRAINT "virtual_server_members_virtualServerId_fkey" FOREIGN KEY ("virtualServerId") REFERENCES "virtual_servers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

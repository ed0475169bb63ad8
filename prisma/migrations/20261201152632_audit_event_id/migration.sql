-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "eventId" UUID;

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_eventId_key" ON "audit_events"("eventId");

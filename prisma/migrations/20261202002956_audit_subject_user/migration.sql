-- AlterTable
ALTER TABLE "AuditLog" ADD COLUMN "subjectUserId" TEXT;

-- CreateIndex
CREATE INDEX "AuditLog_subjectUserId_idx" ON "AuditLog"("subjectUserId");

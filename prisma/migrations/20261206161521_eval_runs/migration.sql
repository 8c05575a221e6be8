-- AlterTable
ALTER TABLE "Task" ADD COLUMN "evalRunId" TEXT;

-- CreateIndex
CREATE INDEX "Task_evalRunId_idx" ON "Task"("evalRunId");

-- DropIndex
DROP INDEX "Hypothesis_taskId_idx";

-- DropIndex
DROP INDEX "Job_taskId_idx";

-- AlterTable
ALTER TABLE "Hypothesis" ADD COLUMN     "author" TEXT,
ALTER COLUMN "iterationId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "wakeRequested" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "error" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "cancelRequestedBy" TEXT,
ADD COLUMN     "checkpointSha" TEXT,
ADD COLUMN     "finishedAt" TIMESTAMP(3),
ADD COLUMN     "hypothesisWaitMs" INTEGER NOT NULL DEFAULT 1800000,
ADD COLUMN     "iterationCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "maxWallClockMs" INTEGER NOT NULL DEFAULT 3600000,
ADD COLUMN     "sourceId" TEXT,
ADD COLUMN     "startedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Hypothesis_taskId_iterationId_idx" ON "Hypothesis"("taskId", "iterationId");

-- CreateIndex
CREATE UNIQUE INDEX "Job_taskId_key" ON "Job"("taskId");

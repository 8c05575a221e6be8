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
ALTER TABLE "Run" ADD COLUMN     "commitSha" TEXT,
ADD COLUMN     "error" TEXT,
ADD COLUMN     "gateIndex" INTEGER,
ADD COLUMN     "planStepId" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "allowTestEdits" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "cancelRequestedBy" TEXT,
ADD COLUMN     "checkpointSha" TEXT,
ADD COLUMN     "costMicroUsd" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "finishedAt" TIMESTAMP(3),
ADD COLUMN     "fixer" TEXT NOT NULL DEFAULT 'external',
ADD COLUMN     "hypothesisWaitMs" INTEGER NOT NULL DEFAULT 1800000,
ADD COLUMN     "iterationCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "maxTokens" INTEGER,
ADD COLUMN     "maxWallClockMs" INTEGER NOT NULL DEFAULT 3600000,
ADD COLUMN     "sourceId" TEXT,
ADD COLUMN     "startedAt" TIMESTAMP(3),
ADD COLUMN     "tokensUsed" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "PlanStep" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "gates" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "doneAt" TIMESTAMP(3),
    "doneAtSha" TEXT,

    CONSTRAINT "PlanStep_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PlanStep_taskId_index_key" ON "PlanStep"("taskId", "index");

-- CreateIndex
CREATE INDEX "Hypothesis_taskId_iterationId_idx" ON "Hypothesis"("taskId", "iterationId");

-- CreateIndex
CREATE UNIQUE INDEX "Job_taskId_key" ON "Job"("taskId");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_planStepId_fkey" FOREIGN KEY ("planStepId") REFERENCES "PlanStep"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PlanStep" ADD CONSTRAINT "PlanStep_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

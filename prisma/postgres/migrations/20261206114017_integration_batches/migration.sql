-- CreateTable
CREATE TABLE "Batch" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "sourceKind" TEXT NOT NULL DEFAULT 'git',
    "sourceUrl" TEXT NOT NULL,
    "baseCommit" TEXT NOT NULL,
    "hostTaskId" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "conflicts" JSONB,
    "trials" JSONB,
    "culprits" JSONB,
    "error" TEXT,
    "commits" JSONB,
    "diff" BYTEA,
    "diffSha256" TEXT,
    "approvedSha256" TEXT,
    "reviewedBy" TEXT,
    "reviewedAt" TIMESTAMP(3),
    "pushes" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Batch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BatchMember" (
    "batchId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "headCommit" TEXT NOT NULL,
    "diffSha256" TEXT NOT NULL,
    "fixed" JSONB,
    "droppedBy" TEXT,
    "droppedAt" TIMESTAMP(3),

    CONSTRAINT "BatchMember_pkey" PRIMARY KEY ("batchId","taskId")
);

-- CreateIndex
CREATE INDEX "Batch_createdAt_idx" ON "Batch"("createdAt");

-- CreateIndex
CREATE INDEX "BatchMember_taskId_idx" ON "BatchMember"("taskId");

-- AddForeignKey
ALTER TABLE "BatchMember" ADD CONSTRAINT "BatchMember_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "Batch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BatchMember" ADD CONSTRAINT "BatchMember_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

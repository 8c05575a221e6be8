-- CreateTable
CREATE TABLE "Batch" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "diff" BLOB,
    "diffSha256" TEXT,
    "approvedSha256" TEXT,
    "reviewedBy" TEXT,
    "reviewedAt" DATETIME,
    "pushes" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
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
    "droppedAt" DATETIME,

    PRIMARY KEY ("batchId", "taskId"),
    CONSTRAINT "BatchMember_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "Batch" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "BatchMember_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Batch_createdAt_idx" ON "Batch"("createdAt");

-- CreateIndex
CREATE INDEX "BatchMember_taskId_idx" ON "BatchMember"("taskId");

-- AlterTable
ALTER TABLE "Review" ADD COLUMN "clearedAt" DATETIME;
ALTER TABLE "Review" ADD COLUMN "clearedBy" TEXT;
ALTER TABLE "Review" ADD COLUMN "clearedHow" TEXT;
ALTER TABLE "Review" ADD COLUMN "dismissReason" TEXT;

-- CreateTable
CREATE TABLE "ReviewThread" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "writtenOnSha256" TEXT NOT NULL,
    "checkpointSha" TEXT NOT NULL,
    "diffSha256" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "startLine" INTEGER NOT NULL,
    "endLine" INTEGER NOT NULL,
    "originalPath" TEXT NOT NULL,
    "originalStartLine" INTEGER NOT NULL,
    "originalEndLine" INTEGER NOT NULL,
    "anchorLines" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "outdatedReason" TEXT,
    "author" TEXT NOT NULL,
    "authorId" TEXT,
    "resolvedBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ReviewThread_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "reviewId" TEXT,
    "authorKind" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "authorId" TEXT,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReviewComment_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "ReviewThread" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewComment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewDraft" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "diffSha256" TEXT NOT NULL,
    "threadId" TEXT,
    "path" TEXT,
    "side" TEXT,
    "startLine" INTEGER,
    "endLine" INTEGER,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ReviewDraft_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Iteration" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "winner" TEXT,
    "checkpointSha" TEXT,
    "status" TEXT NOT NULL DEFAULT 'running',
    "reviewRound" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Iteration_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Iteration" ("checkpointSha", "createdAt", "id", "index", "status", "taskId", "updatedAt", "winner") SELECT "checkpointSha", "createdAt", "id", "index", "status", "taskId", "updatedAt", "winner" FROM "Iteration";
DROP TABLE "Iteration";
ALTER TABLE "new_Iteration" RENAME TO "Iteration";
CREATE UNIQUE INDEX "Iteration_taskId_index_key" ON "Iteration"("taskId", "index");
CREATE TABLE "new_Task" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "sourceKind" TEXT NOT NULL,
    "sourceUrl" TEXT,
    "sourceRef" TEXT,
    "archiveName" TEXT,
    "testCommand" JSONB NOT NULL,
    "maxIterations" INTEGER NOT NULL DEFAULT 3,
    "hypothesesPerIteration" INTEGER NOT NULL DEFAULT 3,
    "sourceId" TEXT,
    "baselineCommit" TEXT,
    "checkpointSha" TEXT,
    "worktreePath" TEXT,
    "iterationCount" INTEGER NOT NULL DEFAULT 0,
    "maxWallClockMs" INTEGER NOT NULL DEFAULT 3600000,
    "hypothesisWaitMs" INTEGER NOT NULL DEFAULT 1800000,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "cancelRequestedBy" TEXT,
    "fixer" TEXT NOT NULL DEFAULT 'external',
    "allowTestEdits" BOOLEAN NOT NULL DEFAULT false,
    "maxTokens" INTEGER,
    "tokensUsed" INTEGER NOT NULL DEFAULT 0,
    "maxMemoryMb" INTEGER,
    "maxPids" INTEGER,
    "maxDiskMb" INTEGER,
    "maxInodes" INTEGER,
    "setupCommands" JSONB,
    "buildCommand" JSONB,
    "knownFailures" JSONB,
    "setup" JSONB,
    "reviewPartial" BOOLEAN NOT NULL DEFAULT false,
    "stillFailing" JSONB,
    "costMicroUsd" INTEGER NOT NULL DEFAULT 0,
    "reviewRounds" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastEventId" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "approvalState" TEXT NOT NULL DEFAULT 'none',
    "approvedDiffSha256" TEXT,
    "diffSha256" TEXT,
    "ownerId" TEXT,
    "teamId" TEXT,
    "workerId" TEXT,
    CONSTRAINT "Task_diffSha256_fkey" FOREIGN KEY ("diffSha256") REFERENCES "Diff" ("sha256") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Task_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Task_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Task_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Task" ("allowTestEdits", "approvalState", "approvedDiffSha256", "archiveName", "baselineCommit", "buildCommand", "cancelRequestedBy", "checkpointSha", "costMicroUsd", "createdAt", "diffSha256", "error", "finishedAt", "fixer", "hypothesesPerIteration", "hypothesisWaitMs", "id", "iterationCount", "knownFailures", "lastEventId", "maxDiskMb", "maxInodes", "maxIterations", "maxMemoryMb", "maxPids", "maxTokens", "maxWallClockMs", "ownerId", "reviewPartial", "setup", "setupCommands", "sourceId", "sourceKind", "sourceRef", "sourceUrl", "startedAt", "status", "stillFailing", "teamId", "testCommand", "tokensUsed", "updatedAt", "workerId", "worktreePath") SELECT "allowTestEdits", "approvalState", "approvedDiffSha256", "archiveName", "baselineCommit", "buildCommand", "cancelRequestedBy", "checkpointSha", "costMicroUsd", "createdAt", "diffSha256", "error", "finishedAt", "fixer", "hypothesesPerIteration", "hypothesisWaitMs", "id", "iterationCount", "knownFailures", "lastEventId", "maxDiskMb", "maxInodes", "maxIterations", "maxMemoryMb", "maxPids", "maxTokens", "maxWallClockMs", "ownerId", "reviewPartial", "setup", "setupCommands", "sourceId", "sourceKind", "sourceRef", "sourceUrl", "startedAt", "status", "stillFailing", "teamId", "testCommand", "tokensUsed", "updatedAt", "workerId", "worktreePath" FROM "Task";
DROP TABLE "Task";
ALTER TABLE "new_Task" RENAME TO "Task";
CREATE INDEX "Task_status_idx" ON "Task"("status");
CREATE INDEX "Task_createdAt_idx" ON "Task"("createdAt");
CREATE INDEX "Task_ownerId_idx" ON "Task"("ownerId");
CREATE INDEX "Task_teamId_idx" ON "Task"("teamId");
CREATE INDEX "Task_workerId_idx" ON "Task"("workerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ReviewThread_taskId_status_idx" ON "ReviewThread"("taskId", "status");

-- CreateIndex
CREATE INDEX "ReviewComment_threadId_createdAt_idx" ON "ReviewComment"("threadId", "createdAt");

-- CreateIndex
CREATE INDEX "ReviewDraft_taskId_userId_idx" ON "ReviewDraft"("taskId", "userId");

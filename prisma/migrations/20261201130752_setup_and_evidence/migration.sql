-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "iterationId" TEXT,
    "hypothesisId" TEXT,
    "kind" TEXT NOT NULL,
    "commitSha" TEXT,
    "planStepId" TEXT,
    "gateIndex" INTEGER,
    "argv" JSONB NOT NULL,
    "mode" TEXT NOT NULL,
    "exitCode" INTEGER,
    "signal" TEXT,
    "timedOut" BOOLEAN NOT NULL DEFAULT false,
    "durationMs" INTEGER NOT NULL,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "parsed" BOOLEAN NOT NULL DEFAULT false,
    "outputTail" TEXT NOT NULL DEFAULT '',
    "buildFailed" BOOLEAN NOT NULL DEFAULT false,
    "cases" JSONB,
    "tests" JSONB,
    "disqualified" TEXT,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Run_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_iterationId_fkey" FOREIGN KEY ("iterationId") REFERENCES "Iteration" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_hypothesisId_fkey" FOREIGN KEY ("hypothesisId") REFERENCES "Hypothesis" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_planStepId_fkey" FOREIGN KEY ("planStepId") REFERENCES "PlanStep" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("argv", "commitSha", "createdAt", "durationMs", "error", "exitCode", "failed", "gateIndex", "hypothesisId", "id", "iterationId", "kind", "mode", "outputTail", "parsed", "passed", "planStepId", "signal", "skipped", "taskId", "timedOut") SELECT "argv", "commitSha", "createdAt", "durationMs", "error", "exitCode", "failed", "gateIndex", "hypothesisId", "id", "iterationId", "kind", "mode", "outputTail", "parsed", "passed", "planStepId", "signal", "skipped", "taskId", "timedOut" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_taskId_createdAt_idx" ON "Run"("taskId", "createdAt");
CREATE INDEX "Run_iterationId_idx" ON "Run"("iterationId");
CREATE INDEX "Run_hypothesisId_idx" ON "Run"("hypothesisId");
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
    "setupCommands" JSONB,
    "buildCommand" JSONB,
    "knownFailures" JSONB,
    "setup" JSONB,
    "reviewPartial" BOOLEAN NOT NULL DEFAULT false,
    "stillFailing" JSONB,
    "costMicroUsd" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastEventId" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "approvalState" TEXT NOT NULL DEFAULT 'none',
    "approvedDiffSha256" TEXT,
    "diffSha256" TEXT,
    CONSTRAINT "Task_diffSha256_fkey" FOREIGN KEY ("diffSha256") REFERENCES "Diff" ("sha256") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Task" ("allowTestEdits", "approvalState", "approvedDiffSha256", "archiveName", "baselineCommit", "cancelRequestedBy", "checkpointSha", "costMicroUsd", "createdAt", "diffSha256", "error", "finishedAt", "fixer", "hypothesesPerIteration", "hypothesisWaitMs", "id", "iterationCount", "lastEventId", "maxDiskMb", "maxIterations", "maxMemoryMb", "maxPids", "maxTokens", "maxWallClockMs", "sourceId", "sourceKind", "sourceRef", "sourceUrl", "startedAt", "status", "testCommand", "tokensUsed", "updatedAt", "worktreePath") SELECT "allowTestEdits", "approvalState", "approvedDiffSha256", "archiveName", "baselineCommit", "cancelRequestedBy", "checkpointSha", "costMicroUsd", "createdAt", "diffSha256", "error", "finishedAt", "fixer", "hypothesesPerIteration", "hypothesisWaitMs", "id", "iterationCount", "lastEventId", "maxDiskMb", "maxIterations", "maxMemoryMb", "maxPids", "maxTokens", "maxWallClockMs", "sourceId", "sourceKind", "sourceRef", "sourceUrl", "startedAt", "status", "testCommand", "tokensUsed", "updatedAt", "worktreePath" FROM "Task";
DROP TABLE "Task";
ALTER TABLE "new_Task" RENAME TO "Task";
CREATE INDEX "Task_status_idx" ON "Task"("status");
CREATE INDEX "Task_createdAt_idx" ON "Task"("createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

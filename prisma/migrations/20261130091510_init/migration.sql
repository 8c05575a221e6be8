-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "sourceKind" TEXT NOT NULL,
    "sourceUrl" TEXT,
    "sourceRef" TEXT,
    "archiveName" TEXT,
    "testCommand" JSONB NOT NULL,
    "maxIterations" INTEGER NOT NULL DEFAULT 3,
    "hypothesesPerIteration" INTEGER NOT NULL DEFAULT 3,
    "baselineCommit" TEXT,
    "worktreePath" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastEventId" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "approvalState" TEXT NOT NULL DEFAULT 'none',
    "approvedDiffSha256" TEXT,
    "diffSha256" TEXT,
    CONSTRAINT "Task_diffSha256_fkey" FOREIGN KEY ("diffSha256") REFERENCES "Diff" ("sha256") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Iteration" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "winner" TEXT,
    "checkpointSha" TEXT,
    "status" TEXT NOT NULL DEFAULT 'running',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Iteration_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Hypothesis" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "iterationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "rank" INTEGER,
    "verdict" TEXT NOT NULL DEFAULT 'pending',
    "changedLines" INTEGER,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Hypothesis_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Hypothesis_iterationId_fkey" FOREIGN KEY ("iterationId") REFERENCES "Iteration" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HypothesisEdit" (
    "hypothesisId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "op" TEXT NOT NULL,
    "blobSha256" TEXT,

    PRIMARY KEY ("hypothesisId", "path"),
    CONSTRAINT "HypothesisEdit_hypothesisId_fkey" FOREIGN KEY ("hypothesisId") REFERENCES "Hypothesis" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "HypothesisEdit_blobSha256_fkey" FOREIGN KEY ("blobSha256") REFERENCES "Blob" ("sha256") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "iterationId" TEXT,
    "hypothesisId" TEXT,
    "kind" TEXT NOT NULL,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Run_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_iterationId_fkey" FOREIGN KEY ("iterationId") REFERENCES "Iteration" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_hypothesisId_fkey" FOREIGN KEY ("hypothesisId") REFERENCES "Hypothesis" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Event" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Event_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Diff" (
    "sha256" TEXT NOT NULL PRIMARY KEY,
    "bytes" BLOB NOT NULL,
    "flags" JSONB NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Blob" (
    "sha256" TEXT NOT NULL PRIMARY KEY,
    "bytes" BLOB NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Review" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "diffSha256" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "comment" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Review_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Review_diffSha256_fkey" FOREIGN KEY ("diffSha256") REFERENCES "Diff" ("sha256") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "details" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedBy" TEXT,
    "lockedUntil" DATETIME,
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Job_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Task_status_idx" ON "Task"("status");

-- CreateIndex
CREATE INDEX "Task_createdAt_idx" ON "Task"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Iteration_taskId_index_key" ON "Iteration"("taskId", "index");

-- CreateIndex
CREATE INDEX "Hypothesis_taskId_idx" ON "Hypothesis"("taskId");

-- CreateIndex
CREATE UNIQUE INDEX "Hypothesis_iterationId_name_key" ON "Hypothesis"("iterationId", "name");

-- CreateIndex
CREATE INDEX "HypothesisEdit_blobSha256_idx" ON "HypothesisEdit"("blobSha256");

-- CreateIndex
CREATE INDEX "Run_taskId_createdAt_idx" ON "Run"("taskId", "createdAt");

-- CreateIndex
CREATE INDEX "Run_iterationId_idx" ON "Run"("iterationId");

-- CreateIndex
CREATE INDEX "Run_hypothesisId_idx" ON "Run"("hypothesisId");

-- CreateIndex
CREATE UNIQUE INDEX "Event_taskId_seq_key" ON "Event"("taskId", "seq");

-- CreateIndex
CREATE INDEX "Review_taskId_createdAt_idx" ON "Review"("taskId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_hash_key" ON "ApiToken"("hash");

-- CreateIndex
CREATE INDEX "AuditLog_createdAt_idx" ON "AuditLog"("createdAt");

-- CreateIndex
CREATE INDEX "AuditLog_target_idx" ON "AuditLog"("target");

-- CreateIndex
CREATE INDEX "Job_state_runAt_idx" ON "Job"("state", "runAt");

-- CreateIndex
CREATE INDEX "Job_taskId_idx" ON "Job"("taskId");

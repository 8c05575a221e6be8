-- AlterTable
ALTER TABLE "AuditLog" ADD COLUMN "actorUserId" TEXT;

-- AlterTable
ALTER TABLE "Hypothesis" ADD COLUMN "submittedById" TEXT;

-- AlterTable
ALTER TABLE "Review" ADD COLUMN "reviewerId" TEXT;

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "username" TEXT,
    "displayUsername" TEXT,
    "role" TEXT NOT NULL DEFAULT 'author',
    "disabledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "userId" TEXT NOT NULL,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" DATETIME,
    "refreshTokenExpiresAt" DATETIME,
    "scope" TEXT,
    "password" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "RateLimit" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "lastRequest" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "SetupLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hash" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "TeamMember" (
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("teamId", "userId"),
    CONSTRAINT "TeamMember_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TeamMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "capacity" INTEGER NOT NULL,
    "running" INTEGER NOT NULL DEFAULT 0,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stoppedAt" DATETIME
);

-- CreateTable
CREATE TABLE "GitBundle" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sourceId" TEXT NOT NULL,
    "tipSha" TEXT NOT NULL,
    "baseSha" TEXT,
    "bytes" BLOB NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ApiToken" ("createdAt", "hash", "id", "lastUsedAt", "name", "revokedAt", "scopes") SELECT "createdAt", "hash", "id", "lastUsedAt", "name", "revokedAt", "scopes" FROM "ApiToken";
DROP TABLE "ApiToken";
ALTER TABLE "new_ApiToken" RENAME TO "ApiToken";
CREATE UNIQUE INDEX "ApiToken_hash_key" ON "ApiToken"("hash");
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
    "ownerId" TEXT,
    "teamId" TEXT,
    "workerId" TEXT,
    CONSTRAINT "Task_diffSha256_fkey" FOREIGN KEY ("diffSha256") REFERENCES "Diff" ("sha256") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Task_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Task_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Task_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Task" ("allowTestEdits", "approvalState", "approvedDiffSha256", "archiveName", "baselineCommit", "buildCommand", "cancelRequestedBy", "checkpointSha", "costMicroUsd", "createdAt", "diffSha256", "error", "finishedAt", "fixer", "hypothesesPerIteration", "hypothesisWaitMs", "id", "iterationCount", "knownFailures", "lastEventId", "maxDiskMb", "maxIterations", "maxMemoryMb", "maxPids", "maxTokens", "maxWallClockMs", "reviewPartial", "setup", "setupCommands", "sourceId", "sourceKind", "sourceRef", "sourceUrl", "startedAt", "status", "stillFailing", "testCommand", "tokensUsed", "updatedAt", "worktreePath") SELECT "allowTestEdits", "approvalState", "approvedDiffSha256", "archiveName", "baselineCommit", "buildCommand", "cancelRequestedBy", "checkpointSha", "costMicroUsd", "createdAt", "diffSha256", "error", "finishedAt", "fixer", "hypothesesPerIteration", "hypothesisWaitMs", "id", "iterationCount", "knownFailures", "lastEventId", "maxDiskMb", "maxIterations", "maxMemoryMb", "maxPids", "maxTokens", "maxWallClockMs", "reviewPartial", "setup", "setupCommands", "sourceId", "sourceKind", "sourceRef", "sourceUrl", "startedAt", "status", "stillFailing", "testCommand", "tokensUsed", "updatedAt", "worktreePath" FROM "Task";
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
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");

-- CreateIndex
CREATE UNIQUE INDEX "Session_token_key" ON "Session"("token");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE INDEX "Verification_identifier_idx" ON "Verification"("identifier");

-- CreateIndex
CREATE UNIQUE INDEX "RateLimit_key_key" ON "RateLimit"("key");

-- CreateIndex
CREATE UNIQUE INDEX "SetupLink_hash_key" ON "SetupLink"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "Team_name_key" ON "Team"("name");

-- CreateIndex
CREATE INDEX "TeamMember_userId_idx" ON "TeamMember"("userId");

-- CreateIndex
CREATE INDEX "Worker_heartbeatAt_idx" ON "Worker"("heartbeatAt");

-- CreateIndex
CREATE UNIQUE INDEX "GitBundle_sourceId_tipSha_key" ON "GitBundle"("sourceId", "tipSha");

-- CreateIndex
CREATE INDEX "AuditLog_actorUserId_idx" ON "AuditLog"("actorUserId");

-- AlterTable
ALTER TABLE "Iteration" ADD COLUMN     "reviewRound" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Review" ADD COLUMN     "clearedAt" TIMESTAMP(3),
ADD COLUMN     "clearedBy" TEXT,
ADD COLUMN     "clearedHow" TEXT,
ADD COLUMN     "dismissReason" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "reviewRounds" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ReviewThread" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewThread_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "reviewId" TEXT,
    "authorKind" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "authorId" TEXT,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewDraft" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "diffSha256" TEXT NOT NULL,
    "threadId" TEXT,
    "path" TEXT,
    "side" TEXT,
    "startLine" INTEGER,
    "endLine" INTEGER,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewDraft_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReviewThread_taskId_status_idx" ON "ReviewThread"("taskId", "status");

-- CreateIndex
CREATE INDEX "ReviewComment_threadId_createdAt_idx" ON "ReviewComment"("threadId", "createdAt");

-- CreateIndex
CREATE INDEX "ReviewDraft_taskId_userId_idx" ON "ReviewDraft"("taskId", "userId");

-- AddForeignKey
ALTER TABLE "ReviewThread" ADD CONSTRAINT "ReviewThread_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "ReviewThread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "Review"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewDraft" ADD CONSTRAINT "ReviewDraft_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "Remote" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "username" TEXT,
    "secretBox" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Remote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskPush" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "remoteId" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "commitSha" TEXT NOT NULL,
    "diffSha256" TEXT NOT NULL,
    "pushedBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TaskPush_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Remote_name_key" ON "Remote"("name");

-- CreateIndex
CREATE INDEX "TaskPush_taskId_remoteId_branch_createdAt_idx" ON "TaskPush"("taskId", "remoteId", "branch", "createdAt");

-- AddForeignKey
ALTER TABLE "TaskPush" ADD CONSTRAINT "TaskPush_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskPush" ADD CONSTRAINT "TaskPush_remoteId_fkey" FOREIGN KEY ("remoteId") REFERENCES "Remote"("id") ON DELETE CASCADE ON UPDATE CASCADE;

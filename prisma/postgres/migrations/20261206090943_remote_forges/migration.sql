-- AlterTable
ALTER TABLE "Remote" ADD COLUMN     "forge" TEXT;

-- AlterTable
ALTER TABLE "TaskPush" ADD COLUMN     "pullRequestUrl" TEXT;

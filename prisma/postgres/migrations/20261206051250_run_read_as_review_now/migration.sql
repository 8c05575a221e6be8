-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "readAs" TEXT;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "reviewNowRequestedBy" TEXT;

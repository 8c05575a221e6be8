-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "maxDiskMb" INTEGER,
ADD COLUMN     "maxMemoryMb" INTEGER,
ADD COLUMN     "maxPids" INTEGER;

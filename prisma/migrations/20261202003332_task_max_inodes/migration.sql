-- AlterTable
ALTER TABLE "Task" ADD COLUMN "maxInodes" INTEGER;

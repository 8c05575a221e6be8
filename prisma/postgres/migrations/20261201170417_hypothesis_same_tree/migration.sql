-- AlterTable
ALTER TABLE "Hypothesis" ADD COLUMN     "sameTreeAs" TEXT;

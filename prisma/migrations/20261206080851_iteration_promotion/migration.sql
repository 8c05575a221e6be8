-- AlterTable
ALTER TABLE "Iteration" ADD COLUMN "passedOver" TEXT;
ALTER TABLE "Iteration" ADD COLUMN "promotedBy" TEXT;
ALTER TABLE "Iteration" ADD COLUMN "promotionReason" TEXT;

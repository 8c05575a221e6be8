-- AlterTable
ALTER TABLE "Iteration" ADD COLUMN     "passedOver" TEXT,
ADD COLUMN     "promotedBy" TEXT,
ADD COLUMN     "promotionReason" TEXT;

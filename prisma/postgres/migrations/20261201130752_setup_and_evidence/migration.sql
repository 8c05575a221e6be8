-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "buildFailed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "cases" JSONB,
ADD COLUMN     "disqualified" TEXT,
ADD COLUMN     "tests" JSONB;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "buildCommand" JSONB,
ADD COLUMN     "knownFailures" JSONB,
ADD COLUMN     "reviewPartial" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "setup" JSONB,
ADD COLUMN     "setupCommands" JSONB,
ADD COLUMN     "stillFailing" JSONB;

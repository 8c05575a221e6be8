-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "issueUrl" TEXT,
ADD COLUMN     "problem" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "title" TEXT NOT NULL DEFAULT '';

-- Existing tasks get a title from their source, as new ones without a title do: a Git source's
-- repository name (the URL's last segment, without ".git"), with " @ ref" when it named one; an
-- archive's file name.
UPDATE "Task" SET "title" = left("archiveName", 200)
WHERE "sourceKind" = 'archive' AND "archiveName" IS NOT NULL;
UPDATE "Task"
SET "title" = left(
  regexp_replace(regexp_replace(rtrim("sourceUrl", '/'), '^.*/', ''), '\.git$', '')
    || CASE WHEN "sourceRef" IS NULL OR "sourceRef" = '' THEN '' ELSE ' @ ' || "sourceRef" END,
  200)
WHERE "sourceKind" = 'git' AND "sourceUrl" IS NOT NULL;

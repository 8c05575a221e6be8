-- AlterTable
ALTER TABLE "Task" ADD COLUMN "title" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Task" ADD COLUMN "problem" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Task" ADD COLUMN "issueUrl" TEXT;

-- Existing tasks get a title from their source, as new ones without a title do: a Git source's
-- repository name (the URL's last segment, without ".git"), with " @ ref" when it named one; an
-- archive's file name. rtrim(url, replace(url, '/', '')) is the URL up to its last '/'.
UPDATE "Task" SET "title" = substr("archiveName", 1, 200)
WHERE "sourceKind" = 'archive' AND "archiveName" IS NOT NULL;
UPDATE "Task" SET "title" = replace(rtrim("sourceUrl", '/'), rtrim(rtrim("sourceUrl", '/'), replace(rtrim("sourceUrl", '/'), '/', '')), '')
WHERE "sourceKind" = 'git' AND "sourceUrl" IS NOT NULL;
UPDATE "Task" SET "title" = substr("title", 1, length("title") - 4)
WHERE "sourceKind" = 'git' AND "title" LIKE '%.git' AND length("title") > 4;
UPDATE "Task" SET "title" = substr("title" || ' @ ' || "sourceRef", 1, 200)
WHERE "sourceKind" = 'git' AND "sourceRef" IS NOT NULL AND "sourceRef" <> '';

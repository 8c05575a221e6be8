-- The task list (server/tasks/list-tasks.ts) reads pages as
--   ... ORDER BY "createdAt"|"updatedAt" DESC, "id" DESC LIMIT n   (after a (sort key, id) cursor)
-- (createdAt, id) and (updatedAt, id): the first page and each next one of either sort is one
--   backward range read of the index, the id breaking ties exactly as the ORDER BY does.
-- (status, createdAt, id) and (status, updatedAt, id): the same for the status filter (each
--   status of `status IN (...)` is one range, merged); they also serve every `status = ...` lookup.
-- The single-column createdAt and status indexes are prefixes of these, so they go.
-- DropIndex
DROP INDEX "Task_createdAt_idx";

-- DropIndex
DROP INDEX "Task_status_idx";

-- CreateIndex
CREATE INDEX "Task_createdAt_id_idx" ON "Task"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Task_updatedAt_id_idx" ON "Task"("updatedAt", "id");

-- CreateIndex
CREATE INDEX "Task_status_createdAt_id_idx" ON "Task"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Task_status_updatedAt_id_idx" ON "Task"("status", "updatedAt", "id");

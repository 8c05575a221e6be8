-- The audit log is append-only: rows are created, never changed or removed (written by hand:
-- Prisma's schema language has no triggers, and its diff leaves them alone).
CREATE TRIGGER "AuditLog_no_update" BEFORE UPDATE ON "AuditLog"
BEGIN
  SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER "AuditLog_no_delete" BEFORE DELETE ON "AuditLog"
BEGIN
  SELECT RAISE(ABORT, 'the audit log is append-only');
END;

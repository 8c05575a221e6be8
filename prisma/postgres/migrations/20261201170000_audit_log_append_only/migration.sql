-- The audit log is append-only: rows are created, never changed or removed (written by hand:
-- Prisma's schema language has no triggers, and its diff leaves them alone).
CREATE FUNCTION "shadowbox_audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END;
$$;

CREATE TRIGGER "AuditLog_append_only" BEFORE UPDATE OR DELETE ON "AuditLog"
FOR EACH ROW EXECUTE FUNCTION "shadowbox_audit_log_append_only"();

CREATE TRIGGER "AuditLog_no_truncate" BEFORE TRUNCATE ON "AuditLog"
FOR EACH STATEMENT EXECUTE FUNCTION "shadowbox_audit_log_append_only"();

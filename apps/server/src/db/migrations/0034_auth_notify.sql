-- Who a session token belongs to is cached by each server copy (ADR 0046): every change that can
-- alter an answer of the session lookup (SessionRepository.findActive) is announced on the
-- `fv_auth` channel with the user's id, after the transaction commits, to every connection that
-- listens (each pooled connection of each copy, db/client.ts). A trigger, so no write path is missed.
-- The payload is '<user id> <transaction id>': every listening connection of a copy receives the
-- same announcement, and the transaction id tells a copy it has already heard this one.
CREATE FUNCTION "fv_auth_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fv_auth', (to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END) ->> TG_ARGV[0]) || ' ' || txid_current());
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_auth_changed" AFTER UPDATE ON "users" FOR EACH ROW
  WHEN (OLD."username" IS DISTINCT FROM NEW."username" OR OLD."roles" IS DISTINCT FROM NEW."roles"
    OR OLD."verified" IS DISTINCT FROM NEW."verified" OR OLD."suspended_at" IS DISTINCT FROM NEW."suspended_at"
    OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at")
  EXECUTE FUNCTION "fv_auth_changed"('id');--> statement-breakpoint
CREATE TRIGGER "users_auth_deleted" AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "fv_auth_changed"('id');--> statement-breakpoint
CREATE TRIGGER "sessions_auth_changed" AFTER UPDATE ON "sessions" FOR EACH ROW
  WHEN (OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at" OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at"
    OR OLD."token_hash" IS DISTINCT FROM NEW."token_hash" OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
    OR OLD."passkey" IS DISTINCT FROM NEW."passkey")
  EXECUTE FUNCTION "fv_auth_changed"('user_id');--> statement-breakpoint
CREATE TRIGGER "sessions_auth_deleted" AFTER DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "fv_auth_changed"('user_id');--> statement-breakpoint
CREATE TRIGGER "user_two_factor_auth_changed" AFTER INSERT OR UPDATE OR DELETE ON "user_two_factor" FOR EACH ROW
  EXECUTE FUNCTION "fv_auth_changed"('user_id');

-- Whom a fan follows and subscribes to, and who blocked whom, are cached by each server copy
-- ("creators you may like" and a creator page's follow and subscribe state answer from memory,
-- ADR 0047): every change is announced on the `fv_relations` channel with the id of each person
-- whose relations changed and the transaction's id (as in 0034), after the transaction commits.
CREATE FUNCTION "fv_relations_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
  col text;
BEGIN
  FOREACH col IN ARRAY TG_ARGV LOOP
    PERFORM pg_notify('fv_relations', (r ->> col) || ' ' || txid_current());
  END LOOP;
  IF TG_OP = 'UPDATE' THEN
    r := to_jsonb(OLD);
    FOREACH col IN ARRAY TG_ARGV LOOP
      PERFORM pg_notify('fv_relations', (r ->> col) || ' ' || txid_current());
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "follows_relations_changed" AFTER INSERT OR UPDATE OR DELETE ON "follows" FOR EACH ROW
  EXECUTE FUNCTION "fv_relations_changed"('follower_id');--> statement-breakpoint
CREATE TRIGGER "user_blocks_relations_changed" AFTER INSERT OR UPDATE OR DELETE ON "user_blocks" FOR EACH ROW
  EXECUTE FUNCTION "fv_relations_changed"('blocker_id', 'blocked_id');--> statement-breakpoint
CREATE TRIGGER "subscriptions_relations_changed" AFTER INSERT OR UPDATE OR DELETE ON "subscriptions" FOR EACH ROW
  EXECUTE FUNCTION "fv_relations_changed"('fan_id');

CREATE TABLE "creator_tags" (
	"user_id" uuid NOT NULL,
	"tag" text NOT NULL,
	CONSTRAINT "creator_tags_user_id_tag_pk" PRIMARY KEY("user_id","tag")
);
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"user_id" uuid NOT NULL,
	"term" text NOT NULL,
	"variant" text NOT NULL,
	CONSTRAINT "search_terms_variant_user_id_term_pk" PRIMARY KEY("variant","user_id","term")
);
--> statement-breakpoint
ALTER TABLE "creator_tags" ADD CONSTRAINT "creator_tags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_terms" ADD CONSTRAINT "search_terms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "creator_tags_tag_idx" ON "creator_tags" USING btree ("tag","user_id");--> statement-breakpoint
CREATE INDEX "search_terms_user_idx" ON "search_terms" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "posts_free_feed_idx" ON "posts" USING btree ("admin_status","status","kind","created_at","creator_id","id") WHERE "posts"."visibility" = 'free';--> statement-breakpoint
-- The spelling index (ADR 0024): a word and, from 4 letters on, the word with one letter deleted.
-- Same rule as deletionVariants() in modules/search/spelling.ts.
CREATE OR REPLACE FUNCTION fv_search_variants(word text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT word
  UNION
  SELECT overlay(word placing '' from i for 1) FROM generate_series(1, length(word)) AS i WHERE length(word) >= 4
$$;
--> statement-breakpoint
-- Rewrites one person's words: handle, handle without separators, display name (or name).
CREATE OR REPLACE FUNCTION fv_refresh_search_terms(uid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_terms WHERE user_id = uid;
  INSERT INTO search_terms (user_id, term, variant)
  SELECT DISTINCT uid, w.term, v.variant
  FROM (
    SELECT DISTINCT t AS term FROM users u
    LEFT JOIN profiles p ON p.user_id = u.id
    CROSS JOIN LATERAL regexp_split_to_table(
      lower(u.username || ' ' || regexp_replace(u.username, '[[:space:][:punct:]]+', '', 'g') || ' ' || coalesce(nullif(p.display_name, ''), u.name)),
      '[[:space:][:punct:]]+'
    ) AS t
    WHERE u.id = uid AND length(t) > 0 AND length(t) <= 40
  ) AS w
  CROSS JOIN LATERAL fv_search_variants(w.term) AS v(variant);
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fv_users_search_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM fv_refresh_search_terms(NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fv_profiles_search_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A new profile without a display name of its own changes no word (users' trigger indexed the name).
  IF TG_OP = 'INSERT' AND coalesce(NEW.display_name, '') IN ('', (SELECT name FROM users WHERE id = NEW.user_id)) THEN
    RETURN NULL;
  END IF;
  PERFORM fv_refresh_search_terms(NEW.user_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_search_terms_insert AFTER INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION fv_users_search_terms();
--> statement-breakpoint
CREATE TRIGGER users_search_terms_update AFTER UPDATE OF username, name ON users
  FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION fv_users_search_terms();
--> statement-breakpoint
CREATE TRIGGER profiles_search_terms_insert AFTER INSERT ON profiles
  FOR EACH ROW EXECUTE FUNCTION fv_profiles_search_terms();
--> statement-breakpoint
CREATE TRIGGER profiles_search_terms_update AFTER UPDATE OF display_name ON profiles
  FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name)
  EXECUTE FUNCTION fv_profiles_search_terms();
--> statement-breakpoint
CREATE INDEX "search_terms_term_prefix_idx" ON "search_terms" ("term" text_pattern_ops) WHERE "term" = "variant";
--> statement-breakpoint
CREATE INDEX "search_terms_term_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops) WHERE "term" = "variant";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_about_trgm_idx" ON "profiles" USING gin (lower(coalesce("about", '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "posts_message_trgm_idx" ON "posts" USING gin (lower("message") gin_trgm_ops);
--> statement-breakpoint
SELECT fv_refresh_search_terms(id) FROM users;

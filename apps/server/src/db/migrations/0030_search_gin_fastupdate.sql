-- Search (ADR 0024): the pg_trgm GIN indexes write new entries straight into the index instead of
-- a pending list. With fastupdate on, every row written since the last (auto)vacuum sits in an
-- unordered pending list that each search reads in full: after a bulk load or a busy hour the
-- trigram lookups of one search took ~10 ms instead of ~0.5 ms. Writes to these columns (names,
-- descriptions, post texts) are rare next to searches.
ALTER INDEX IF EXISTS "search_terms_term_trgm_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX IF EXISTS "profiles_about_trgm_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX IF EXISTS "profiles_display_name_trgm_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX IF EXISTS "users_username_trgm_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX IF EXISTS "posts_message_trgm_idx" SET (fastupdate = off);
--> statement-breakpoint
SELECT gin_clean_pending_list(c.oid) FROM pg_class c
WHERE c.relname IN ('search_terms_term_trgm_idx', 'profiles_about_trgm_idx', 'profiles_display_name_trgm_idx', 'users_username_trgm_idx', 'posts_message_trgm_idx')
  AND c.relkind = 'i';

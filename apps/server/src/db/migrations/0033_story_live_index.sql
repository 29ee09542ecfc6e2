CREATE INDEX "posts_story_live_idx" ON "posts" USING btree ((CASE WHEN "kind" = 'story' THEN COALESCE("published_at", "publish_at", "created_at") END));--> statement-breakpoint
-- A post no longer approved is no longer live: since this change a take-down or a send-back clears
-- its published_at (an edit always did), so approved again it goes live again. Older rows kept theirs.
UPDATE "posts" SET "published_at" = NULL WHERE "admin_status" <> 'approved' AND "published_at" IS NOT NULL;

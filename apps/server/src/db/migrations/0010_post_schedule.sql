ALTER TABLE "posts" DROP CONSTRAINT "posts_admin_status_check";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "publish_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "posts_publish_at_idx" ON "posts" USING btree ("creator_id","publish_at");--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_admin_status_check" CHECK ("posts"."admin_status" IN ('new', 'pending', 'approved', 'rejected', 'processing', 'failed'));--> statement-breakpoint
UPDATE "posts" SET "published_at" = COALESCE("reviewed_at", "created_at") WHERE "admin_status" = 'approved';
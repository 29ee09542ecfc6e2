-- Status columns get check constraints (ADR 0015). Values the old code did not know are first
-- mapped the way its casts and filters already treated them, so no row changes meaning.
UPDATE "subscriptions" SET "status" = 'expired' WHERE "status" NOT IN ('active', 'expired', 'cancelled');--> statement-breakpoint
UPDATE "posts" SET "status" = 'deleted' WHERE "status" NOT IN ('active', 'deleted');--> statement-breakpoint
UPDATE "posts" SET "admin_status" = 'new' WHERE "admin_status" NOT IN ('new', 'pending', 'approved', 'rejected');--> statement-breakpoint
UPDATE "posts" SET "visibility" = 'ppv' WHERE "visibility" NOT IN ('free', 'subscribers', 'ppv');--> statement-breakpoint
UPDATE "posts" SET "kind" = 'post' WHERE "kind" NOT IN ('post', 'story');--> statement-breakpoint
UPDATE "complaints" SET "status" = 'pending' WHERE "status" NOT IN ('pending', 'resolved');--> statement-breakpoint
UPDATE "creator_applications" SET "status" = 'draft' WHERE "status" NOT IN ('draft', 'pending', 'accepted', 'rejected');--> statement-breakpoint
UPDATE "media" SET "status" = 'failed' WHERE "status" NOT IN ('processing', 'ready', 'failed');--> statement-breakpoint
UPDATE "checkouts" SET "status" = 'failed' WHERE "status" NOT IN ('pending', 'completed', 'declined', 'failed');--> statement-breakpoint
UPDATE "payment_events" SET "status" = 'rejected' WHERE "status" NOT IN ('received', 'applied', 'rejected', 'ignored');--> statement-breakpoint
UPDATE "payouts" SET "status" = 'scheduled' WHERE "status" NOT IN ('scheduled', 'paid', 'failed');--> statement-breakpoint
UPDATE "ledger_transactions" SET "category" = NULL WHERE "category" NOT IN ('credits', 'subscriptions', 'content', 'tips', 'flowers', 'gifts');--> statement-breakpoint
UPDATE "users" SET "roles" = ARRAY(SELECT r FROM unnest("roles") r WHERE r = ANY(ARRAY['super', 'admin', 'coord', 'user', 'creator', 'fan', 'developer']::text[])) WHERE NOT ("roles" <@ ARRAY['super', 'admin', 'coord', 'user', 'creator', 'fan', 'developer']::text[]);--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_status_check" CHECK ("checkouts"."status" IN ('pending', 'completed', 'declined', 'failed'));--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_status_check" CHECK ("complaints"."status" IN ('pending', 'resolved'));--> statement-breakpoint
ALTER TABLE "creator_applications" ADD CONSTRAINT "creator_applications_status_check" CHECK ("creator_applications"."status" IN ('draft', 'pending', 'accepted', 'rejected'));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_category_check" CHECK ("ledger_transactions"."category" IN ('credits', 'subscriptions', 'content', 'tips', 'flowers', 'gifts'));--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_status_check" CHECK ("media"."status" IN ('processing', 'ready', 'failed'));--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_status_check" CHECK ("payment_events"."status" IN ('received', 'applied', 'rejected', 'ignored'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status_check" CHECK ("payouts"."status" IN ('scheduled', 'paid', 'failed'));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_kind_check" CHECK ("posts"."kind" IN ('post', 'story'));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_visibility_check" CHECK ("posts"."visibility" IN ('free', 'subscribers', 'ppv'));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_admin_status_check" CHECK ("posts"."admin_status" IN ('new', 'pending', 'approved', 'rejected'));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_status_check" CHECK ("posts"."status" IN ('active', 'deleted'));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_status_check" CHECK ("subscriptions"."status" IN ('active', 'expired', 'cancelled'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_roles_check" CHECK ("users"."roles" <@ ARRAY['super', 'admin', 'coord', 'user', 'creator', 'fan', 'developer']::text[]);
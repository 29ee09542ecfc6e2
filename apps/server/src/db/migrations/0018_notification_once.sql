ALTER TABLE "notifications" ADD COLUMN "once_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_once_idx" ON "notifications" USING btree ("user_id","once_key");
CREATE TABLE "video_serves" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"fan_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"served_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "video_serves" ADD CONSTRAINT "video_serves_fan_id_users_id_fk" FOREIGN KEY ("fan_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_serves" ADD CONSTRAINT "video_serves_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "video_serves_fan_media_idx" ON "video_serves" USING btree ("fan_id","media_id");--> statement-breakpoint
CREATE INDEX "video_serves_media_idx" ON "video_serves" USING btree ("media_id");
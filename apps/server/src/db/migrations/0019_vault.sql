CREATE TABLE "welcome_message_media" (
	"creator_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "welcome_message_media_creator_id_media_id_pk" PRIMARY KEY("creator_id","media_id")
);
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "welcome_messages" ADD COLUMN "price" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "welcome_message_media" ADD CONSTRAINT "welcome_message_media_creator_id_welcome_messages_creator_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."welcome_messages"("creator_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "welcome_message_media" ADD CONSTRAINT "welcome_message_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "welcome_message_media_media_idx" ON "welcome_message_media" USING btree ("media_id");--> statement-breakpoint
CREATE UNIQUE INDEX "media_owner_hash_idx" ON "media" USING btree ("owner_id","content_hash");
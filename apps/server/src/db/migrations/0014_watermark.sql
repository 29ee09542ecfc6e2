CREATE TABLE "leak_traces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"requester_id" uuid NOT NULL,
	"mark_id" integer,
	"media_id" uuid,
	"fan_id" uuid,
	"served_at" timestamp with time zone,
	"confidence_pct" integer NOT NULL,
	"complaint_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_serves" (
	"mark_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "media_serves_mark_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"fan_id" uuid NOT NULL,
	"media_id" uuid NOT NULL,
	"served_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "visible_watermark" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD CONSTRAINT "leak_traces_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD CONSTRAINT "leak_traces_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD CONSTRAINT "leak_traces_fan_id_users_id_fk" FOREIGN KEY ("fan_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD CONSTRAINT "leak_traces_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_serves" ADD CONSTRAINT "media_serves_fan_id_users_id_fk" FOREIGN KEY ("fan_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_serves" ADD CONSTRAINT "media_serves_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leak_traces_requester_idx" ON "leak_traces" USING btree ("requester_id");--> statement-breakpoint
CREATE UNIQUE INDEX "media_serves_fan_media_idx" ON "media_serves" USING btree ("fan_id","media_id");
CREATE TABLE "live_serves" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"fan_id" uuid NOT NULL,
	"live_id" uuid NOT NULL,
	"served_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leak_traces" ADD COLUMN "live_id" uuid;--> statement-breakpoint
ALTER TABLE "lives" ADD COLUMN "mark" jsonb;--> statement-breakpoint
ALTER TABLE "live_serves" ADD CONSTRAINT "live_serves_fan_id_users_id_fk" FOREIGN KEY ("fan_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_serves" ADD CONSTRAINT "live_serves_live_id_lives_id_fk" FOREIGN KEY ("live_id") REFERENCES "public"."lives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "live_serves_fan_live_idx" ON "live_serves" USING btree ("fan_id","live_id");--> statement-breakpoint
CREATE INDEX "live_serves_live_idx" ON "live_serves" USING btree ("live_id");--> statement-breakpoint
ALTER TABLE "leak_traces" ADD CONSTRAINT "leak_traces_live_id_lives_id_fk" FOREIGN KEY ("live_id") REFERENCES "public"."lives"("id") ON DELETE set null ON UPDATE no action;
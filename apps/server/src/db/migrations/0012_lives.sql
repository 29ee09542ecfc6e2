CREATE TABLE "live_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"live_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"text" text NOT NULL,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_moderations" (
	"live_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_moderations_live_id_user_id_kind_pk" PRIMARY KEY("live_id","user_id","kind"),
	CONSTRAINT "live_moderations_kind_check" CHECK ("live_moderations"."kind" IN ('mute', 'ban'))
);
--> statement-breakpoint
CREATE TABLE "live_stream_keys" (
	"creator_id" uuid PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_tickets" (
	"live_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_tickets_live_id_user_id_pk" PRIMARY KEY("live_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"title" text NOT NULL,
	"audience" text NOT NULL,
	"ticket_price" integer DEFAULT 0 NOT NULL,
	"goal_credits" integer,
	"goal_label" text,
	"source" text DEFAULT 'browser' NOT NULL,
	"status" text DEFAULT 'live' NOT NULL,
	"peak_viewers" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" uuid,
	"replay_post_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lives_audience_check" CHECK ("lives"."audience" IN ('subscribers', 'everyone', 'ticket')),
	CONSTRAINT "lives_source_check" CHECK ("lives"."source" IN ('browser', 'rtmp')),
	CONSTRAINT "lives_status_check" CHECK ("lives"."status" IN ('live', 'ended'))
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_category_check";--> statement-breakpoint
ALTER TABLE "live_messages" ADD CONSTRAINT "live_messages_live_id_lives_id_fk" FOREIGN KEY ("live_id") REFERENCES "public"."lives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_messages" ADD CONSTRAINT "live_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_moderations" ADD CONSTRAINT "live_moderations_live_id_lives_id_fk" FOREIGN KEY ("live_id") REFERENCES "public"."lives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_moderations" ADD CONSTRAINT "live_moderations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_stream_keys" ADD CONSTRAINT "live_stream_keys_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_tickets" ADD CONSTRAINT "live_tickets_live_id_lives_id_fk" FOREIGN KEY ("live_id") REFERENCES "public"."lives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_tickets" ADD CONSTRAINT "live_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lives" ADD CONSTRAINT "lives_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_messages_live_idx" ON "live_messages" USING btree ("live_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "live_stream_keys_hash_idx" ON "live_stream_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "lives_one_live_per_creator_idx" ON "lives" USING btree ("creator_id") WHERE status = 'live';--> statement-breakpoint
CREATE INDEX "lives_status_idx" ON "lives" USING btree ("status","started_at");--> statement-breakpoint
CREATE INDEX "lives_creator_idx" ON "lives" USING btree ("creator_id","started_at");--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_category_check" CHECK ("ledger_transactions"."category" IN ('credits', 'subscriptions', 'content', 'tips', 'flowers', 'gifts', 'live'));
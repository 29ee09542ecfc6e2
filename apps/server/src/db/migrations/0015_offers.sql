CREATE TABLE "offer_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"discount_percent" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"max_uses" integer NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_links_kind_check" CHECK ("offer_links"."kind" IN ('trial', 'discount')),
	CONSTRAINT "offer_links_uses_check" CHECK ("offer_links"."uses" >= 0 AND "offer_links"."uses" <= "offer_links"."max_uses")
);
--> statement-breakpoint
CREATE TABLE "subscription_bundles" (
	"creator_id" uuid NOT NULL,
	"months" integer NOT NULL,
	"discount_percent" integer NOT NULL,
	CONSTRAINT "subscription_bundles_creator_id_months_pk" PRIMARY KEY("creator_id","months"),
	CONSTRAINT "subscription_bundles_percent_check" CHECK ("subscription_bundles"."discount_percent" BETWEEN 0 AND 90)
);
--> statement-breakpoint
CREATE TABLE "welcome_messages" (
	"creator_id" uuid PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "period_days" integer;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "recurring_cents" integer;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "recurring_days" integer;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "offer_id" uuid;--> statement-breakpoint
ALTER TABLE "subscription_billing" ADD COLUMN "period_days" integer;--> statement-breakpoint
ALTER TABLE "offer_links" ADD CONSTRAINT "offer_links_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_bundles" ADD CONSTRAINT "subscription_bundles_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "welcome_messages" ADD CONSTRAINT "welcome_messages_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offer_links_code_idx" ON "offer_links" USING btree ("code");--> statement-breakpoint
CREATE INDEX "offer_links_creator_idx" ON "offer_links" USING btree ("creator_id");
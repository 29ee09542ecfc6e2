CREATE TABLE "checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"bag_id" text,
	"creator_id" uuid,
	"amount_cents" integer NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"eticketid" text,
	"dynamic_pricing_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"purchase_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "credit_bags" (
	"id" text PRIMARY KEY NOT NULL,
	"credits" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"eticketid" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"available_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"category" text,
	"idempotency_key" text NOT NULL,
	"user_id" uuid,
	"creator_id" uuid,
	"post_id" uuid,
	"provider" text,
	"purchase_id" text,
	"transaction_id" text,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"related_id" uuid,
	"memo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "money_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"event" text NOT NULL,
	"raw" jsonb NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payout_methods" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"details" jsonb NOT NULL,
	"masked" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"batch_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"method" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscription_billing" (
	"subscription_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"purchase_id" text NOT NULL,
	"price_cents" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_activation_at" timestamp with time zone NOT NULL,
	"last_renewal_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD CONSTRAINT "payout_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_billing" ADD CONSTRAINT "subscription_billing_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkouts_user_idx" ON "checkouts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "checkouts_purchase_idx" ON "checkouts" USING btree ("provider","purchase_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account","currency");--> statement-breakpoint
CREATE INDEX "ledger_entries_tx_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_key_idx" ON "ledger_transactions" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_transactions_user_idx" ON "ledger_transactions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_transactions_creator_idx" ON "ledger_transactions" USING btree ("creator_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_transactions_provider_tran_idx" ON "ledger_transactions" USING btree ("provider","transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_related_idx" ON "ledger_transactions" USING btree ("related_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_key_idx" ON "payment_events" USING btree ("provider","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_creator_batch_idx" ON "payouts" USING btree ("creator_id","batch_key");--> statement-breakpoint
CREATE INDEX "payouts_status_idx" ON "payouts" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_billing_purchase_idx" ON "subscription_billing" USING btree ("provider","purchase_id");--> statement-breakpoint
INSERT INTO "credit_bags" ("id", "credits", "price_cents", "eticketid", "active", "position") VALUES
  ('bag-250', 250, 2500, '000000:25000', true, 1),
  ('bag-150', 150, 1500, '000000:15000', true, 2),
  ('bag-50', 50, 500, '000000:5000', true, 3)
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_credits_not_negative" CHECK ("credits" >= 0);

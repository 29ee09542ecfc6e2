CREATE TABLE "vault_folders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "message_id" uuid;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "folder_id" uuid;--> statement-breakpoint
ALTER TABLE "vault_folders" ADD CONSTRAINT "vault_folders_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vault_folders_owner_name_idx" ON "vault_folders" USING btree ("owner_id",lower("name"));--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_folder_id_vault_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."vault_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_transactions_post_idx" ON "ledger_transactions" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_message_idx" ON "ledger_transactions" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "media_folder_idx" ON "media" USING btree ("folder_id");--> statement-breakpoint
-- Paid messages unlocked before this migration: the message is the last part of the transfer's key
-- (`message-unlock:<fan>:<message>`, wallet.service unlockMessage). Amounts are not touched.
UPDATE "ledger_transactions" SET "message_id" = split_part("idempotency_key", ':', 3)::uuid
  WHERE "kind" = 'message_unlock' AND "message_id" IS NULL;

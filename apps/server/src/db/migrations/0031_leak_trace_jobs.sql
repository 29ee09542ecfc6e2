DROP INDEX "leak_traces_requester_idx";--> statement-breakpoint
ALTER TABLE "leak_traces" ALTER COLUMN "confidence_pct" SET DATA TYPE double precision;--> statement-breakpoint
ALTER TABLE "leak_traces" ALTER COLUMN "confidence_pct" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD COLUMN "requester_roles" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD COLUMN "file_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leak_traces" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
-- Traces made before the job (ADR 0026) were answered in their request: they are done.
UPDATE "leak_traces" SET "status" = 'done', "finished_at" = "created_at";--> statement-breakpoint
CREATE INDEX "leak_traces_requester_idx" ON "leak_traces" USING btree ("requester_id","created_at");--> statement-breakpoint
ALTER TABLE "leak_traces" ADD CONSTRAINT "leak_traces_status_check" CHECK ("leak_traces"."status" IN ('pending', 'running', 'done', 'failed'));
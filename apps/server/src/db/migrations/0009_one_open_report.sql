-- Open duplicates filed before this rule (same reporter, same thing, still pending): keep the first.
DELETE FROM "complaints" AS "later" USING "complaints" AS "first"
WHERE "later"."status" = 'pending' AND "first"."status" = 'pending'
  AND "later"."reporter_id" = "first"."reporter_id"
  AND "later"."target_type" = "first"."target_type"
  AND "later"."target_id" = "first"."target_id"
  AND ("later"."created_at", "later"."id") > ("first"."created_at", "first"."id");--> statement-breakpoint
CREATE UNIQUE INDEX "complaints_open_per_reporter_idx" ON "complaints" USING btree ("reporter_id","target_type","target_id") WHERE "complaints"."status" = 'pending';

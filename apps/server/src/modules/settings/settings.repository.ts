import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { moneySettings } from '../../db/schema.ts';

/** Run-time settings as integer values by key (commission, payouts, feature switches). */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  /** Every stored value; a key never set is absent (its default comes from the configuration). */
  async all(): Promise<Map<string, number>> {
    const rows = await this.db.select().from(moneySettings);
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  async some(keys: string[]): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db.select().from(moneySettings).where(inArray(moneySettings.key, keys));
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  /** Writes several values at once (one statement: they change together or not at all). */
  async set(values: Record<string, number>): Promise<void> {
    const rows = Object.entries(values).map(([key, value]) => ({ key, value, updatedAt: new Date() }));
    if (rows.length === 0) return;
    await this.db
      .insert(moneySettings)
      .values(rows)
      .onConflictDoUpdate({
        target: moneySettings.key,
        set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` },
      });
  }
}

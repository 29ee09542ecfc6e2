import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { serverSecrets } from '../db/schema.ts';

/**
 * The secret behind signed media URLs and sandbox payment links. APP_SECRET when set; otherwise
 * the one kept in the database, so that every copy of the server on one database signs alike
 * without set-up (ADR 0014). The first copy to start creates it; copies starting at the same time
 * race on the primary key and all read back the one that won. An install that kept its secret
 * in DATA_DIR/.app-secret (before it moved to the database) carries it over, so links it signed
 * stay valid.
 */
export async function resolveAppSecret(
  config: Pick<Config, 'appSecret' | 'dataDir'>,
  database: Pick<Database, 'db'>,
): Promise<string> {
  if (config.appSecret) return config.appSecret;
  const { db } = database;
  const kept = () => db.select().from(serverSecrets).where(eq(serverSecrets.name, 'app'));
  const [existing] = await kept();
  if (existing) return existing.value;
  await db
    .insert(serverSecrets)
    .values({ name: 'app', value: legacySecret(config.dataDir) ?? randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const [row] = await kept();
  if (!row) throw new Error('The app secret could not be stored in the database');
  return row.value;
}

function legacySecret(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, '.app-secret'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

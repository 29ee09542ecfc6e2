import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/**
 * The secret behind signed media URLs: APP_SECRET when set (required when several server copies
 * share one database, so they sign alike), otherwise generated once and kept in DATA_DIR.
 */
export function resolveAppSecret(config: Pick<Config, 'appSecret' | 'dataDir'>): string {
  if (config.appSecret) return config.appSecret;
  const file = path.join(config.dataDir, '.app-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return fs.readFileSync(file, 'utf8').trim();
  }
}

import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPglite, wrapPglite } from './client.ts';
import { listMigrations, migrate } from './migrate.ts';

/** The migration that adds the status check constraints converts rows written before it. */
describe('status check constraints (migration 0008)', () => {
  let client: PGlite;
  let database: ReturnType<typeof wrapPglite>;
  const run = (q: string) => database.session((exec) => exec(q));

  beforeAll(async () => {
    client = await createPglite();
    database = wrapPglite(client);
    await run(
      'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const m of listMigrations().filter((m) => m.name < '0008')) {
      await client.exec(m.sql.replaceAll('--> statement-breakpoint', ''));
      await run(`INSERT INTO schema_migrations (name) VALUES ('${m.name}')`);
    }
    await run(`INSERT INTO users (id, username, email, name, password_hash, referral_code, roles) VALUES
      ('00000000-0000-0000-0000-000000000001', 'creator01', 'c@x.io', 'C', 'h', 'r1', ARRAY['user','creator','moderator']),
      ('00000000-0000-0000-0000-000000000002', 'fanfan01', 'f@x.io', 'F', 'h', 'r2', ARRAY['user','fan'])`);
    await run(`INSERT INTO subscriptions (fan_id, creator_id, status, current_period_end) VALUES
      ('00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000001', 'paused', now())`);
    await run(`INSERT INTO posts (creator_id, kind, visibility, admin_status, status, certified_at) VALUES
      ('00000000-0000-0000-0000-000000000001', 'reel', 'friends', 'maybe', 'hidden', now())`);
    await migrate(database);
  });
  afterAll(() => client.close());

  it('maps unknown values the way the old code treated them', async () => {
    expect(await run('SELECT status FROM subscriptions')).toEqual([{ status: 'expired' }]);
    expect(await run('SELECT kind, visibility, admin_status, status FROM posts')).toEqual([
      { kind: 'post', visibility: 'ppv', admin_status: 'new', status: 'deleted' },
    ]);
    expect(await run(`SELECT roles FROM users WHERE username = 'creator01'`)).toEqual([
      { roles: ['user', 'creator'] },
    ]);
  });

  it('refuses a status outside the list from then on', async () => {
    await expect(run(`UPDATE subscriptions SET status = 'paused'`)).rejects.toThrow(
      /subscriptions_status_check/,
    );
    await expect(run(`UPDATE posts SET admin_status = 'maybe'`)).rejects.toThrow(/posts_admin_status_check/);
    await expect(run(`UPDATE users SET roles = ARRAY['root']`)).rejects.toThrow(/users_roles_check/);
  });
});

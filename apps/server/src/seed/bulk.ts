/** Sizes of a bulk-seeded store (benchmarks and the hot-query test). */
export interface BulkSize {
  posts: number;
  creators: number;
  fans: number;
}

export const DEFAULT_BULK_SIZE: BulkSize = { posts: 10_000, creators: 50, fans: 500 };

/** Token of the session every seeded fan (`bfan000001`…) and creator gets: `bench-<username>`. */
export const bulkToken = (username: string) => `bench-${username}`;

/**
 * Set-based SQL that fills an empty, migrated store with a realistic shape: creators with
 * profiles, fans with sessions, approved posts, one every minute back from now (two in three with
 * an image), stories (a tenth as many, mostly expired), likes, comments, follows, subscriptions,
 * messages and notifications. A handful of statements whatever the size (generate_series), so a
 * million posts take minutes, not hours.
 * Usernames: `bcreator0001`…, `bfan000001`…; every user's session token is `bench-<username>`.
 */
export function bulkSeedSql(size: BulkSize = DEFAULT_BULK_SIZE): string[] {
  const { posts, creators, fans } = size;
  // Same digest as lib/crypto sha256(): hex SHA-256 of the UTF-8 token.
  const hash = (u: string) => `encode(sha256(convert_to('${bulkToken('')}' || ${u}, 'UTF8')), 'hex')`;
  return [
    `INSERT INTO users (username, email, name, password_hash, roles, verified, referral_code, created_at)
     SELECT 'bcreator' || lpad(i::text, 4, '0'), 'bcreator' || i || '@bench.local', 'Creator ' || i, 'x',
            ARRAY['user','creator']::text[], true, 'bc' || i, now() - interval '400 days'
     FROM generate_series(1, ${creators}) i`,
    `INSERT INTO users (username, email, name, password_hash, roles, verified, referral_code, created_at)
     SELECT 'bfan' || lpad(i::text, 6, '0'), 'bfan' || i || '@bench.local', 'Fan ' || i, 'x',
            ARRAY['user','fan']::text[], false, 'bf' || i, now() - interval '300 days'
     FROM generate_series(1, ${fans}) i`,
    `INSERT INTO profiles (user_id, display_name, about, avatar, subscription_price_cents)
     SELECT id, 'The ' || name, 'About ' || name, 'avatars/' || username || '.webp', 999
     FROM users WHERE username LIKE 'bcreator%'`,
    `INSERT INTO sessions (user_id, token_hash, expires_at)
     SELECT id, ${hash('username')}, now() + interval '30 days'
     FROM users WHERE username LIKE 'bfan%' OR username LIKE 'bcreator%'`,
    `CREATE TEMP TABLE bench_creators AS
     SELECT id, row_number() OVER (ORDER BY username) - 1 AS n FROM users WHERE username LIKE 'bcreator%'`,
    `CREATE TEMP TABLE bench_fans AS
     SELECT id, row_number() OVER (ORDER BY username) - 1 AS n FROM users WHERE username LIKE 'bfan%'`,
    `INSERT INTO posts (creator_id, kind, message, visibility, price, admin_status, status, certified_at, created_at, updated_at, published_at)
     SELECT c.id, 'post', 'Post number ' || i || ' with a few words of text about the day.',
            (ARRAY['free','subscribers','subscribers','ppv'])[1 + i % 4], CASE WHEN i % 4 = 3 THEN 50 ELSE 0 END,
            'approved', 'active', now(), now() - (i || ' minutes')::interval, now() - (i || ' minutes')::interval,
            now() - (i || ' minutes')::interval
     FROM generate_series(1, ${posts}) i JOIN bench_creators c ON c.n = i % ${creators}`,
    // Stories (one per 10 posts, text only): one every 20 minutes back from now, each approved two
    // hours after it was written, so the last day's few are current and the rest expired.
    `INSERT INTO posts (creator_id, kind, message, visibility, admin_status, status, certified_at, created_at, updated_at, published_at)
     SELECT c.id, 'story', 'Story number ' || i, (ARRAY['free','subscribers'])[1 + i % 2], 'approved', 'active', now(),
            now() - (i * 20 + 120 || ' minutes')::interval, now() - (i * 20 || ' minutes')::interval,
            now() - (i * 20 || ' minutes')::interval
     FROM generate_series(1, ${Math.ceil(posts / 10)}) i JOIN bench_creators c ON c.n = i % ${creators}`,
    `INSERT INTO media (owner_id, kind, purpose, status, name, mime, size, original_key, web_key, thumb_key, blur_key, width, height)
     SELECT p.creator_id, 'image', 'post', 'ready', p.id || '.jpg', 'image/jpeg', 120000,
            'o/' || p.id, 'w/' || p.id || '.webp', 't/' || p.id || '.webp', 'b/' || p.id || '.webp', 1080, 1350
     FROM posts p WHERE p.message LIKE 'Post number %' AND (hashtext(p.id::text) % 3) <> 0`,
    `INSERT INTO post_media (post_id, media_id, position)
     SELECT p.id, m.id, 0 FROM media m JOIN posts p ON m.original_key = 'o/' || p.id`,
    `INSERT INTO follows (follower_id, creator_id)
     SELECT f.id, c.id FROM bench_fans f JOIN bench_creators c ON (f.n + c.n) % 10 = 0`,
    `INSERT INTO subscriptions (fan_id, creator_id, status, current_period_end)
     SELECT f.id, c.id, 'active', now() + interval '20 days'
     FROM bench_fans f JOIN bench_creators c ON (f.n + c.n) % 25 = 0`,
    `INSERT INTO post_likes (post_id, user_id)
     SELECT p.id, f.id FROM (SELECT id, row_number() OVER () AS n FROM posts) p
     CROSS JOIN LATERAL (VALUES (p.n % ${fans}), ((p.n * 7) % ${fans}), ((p.n * 13) % ${fans})) k(n)
     JOIN bench_fans f ON f.n = k.n
     ON CONFLICT DO NOTHING`,
    `INSERT INTO comments (post_id, user_id, message)
     SELECT p.id, f.id, 'Nice one' FROM (SELECT id, row_number() OVER () AS n FROM posts) p
     JOIN bench_fans f ON f.n = (p.n * 3) % ${fans} WHERE p.n % 2 = 0`,
    `INSERT INTO messages (message_uuid, from_id, to_id, message, created_at)
     SELECT 'bm' || i, CASE WHEN i % 2 = 0 THEN f.id ELSE c.id END, CASE WHEN i % 2 = 0 THEN c.id ELSE f.id END,
            'Hello ' || i, now() - (i || ' minutes')::interval
     FROM generate_series(1, ${Math.max(fans * 10, 5000)}) i
     JOIN bench_fans f ON f.n = i % ${fans} JOIN bench_creators c ON c.n = (i / ${fans}) % ${creators}`,
    `INSERT INTO notifications (user_id, kind, payload, created_at)
     SELECT u.id, 'like', '{"link":"/","actor":"bfan000001"}'::jsonb, now() - (i || ' minutes')::interval
     FROM generate_series(1, ${Math.max(fans * 10, 5000)}) i
     JOIN (SELECT id, n FROM bench_fans UNION ALL SELECT id, n + ${fans} FROM bench_creators) u
       ON u.n = i % ${fans + creators}`,
    'DROP TABLE bench_creators',
    'DROP TABLE bench_fans',
    'ANALYZE',
  ];
}

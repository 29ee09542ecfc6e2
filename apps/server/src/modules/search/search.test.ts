import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { misspelledQuery, seedCreators, seeded } from '../../../test/search-corpus.ts';
import { deletionVariants, editDistance, personTerms, rankCandidates } from './spelling.ts';

describe('spelling', () => {
  it('counts a swap of neighbours, a dropped and a doubled letter as one edit', () => {
    expect(editDistance('lnua', 'luna')).toBe(1);
    expect(editDistance('rivra', 'rivera')).toBe(1);
    expect(editDistance('riverra', 'rivera')).toBe(1);
    expect(editDistance('luan', 'luna')).toBe(1);
    expect(editDistance('abc', 'xyz', 2)).toBe(3);
    expect(editDistance('luna', 'luna')).toBe(0);
  });
  it('shares a deletion between a word and its one-edit misspellings', () => {
    const luna = new Set(deletionVariants('luna'));
    for (const typo of ['lnua', 'luan', 'lunna', 'lun', 'lina']) {
      expect(deletionVariants(typo).some((v) => luna.has(v))).toBe(true);
    }
    expect(deletionVariants('ab')).toEqual(['ab']);
  });
  it('ranks the better match first, and the more followed among equals', () => {
    const exact = { terms: ['luna', 'rivera'], about: null, followers: 0 };
    const typo = { terms: ['lina', 'rivers'], about: null, followers: 1000 };
    const other = { terms: ['luna', 'moreno'], about: null, followers: 5 };
    // Two near words beat one exact word and a miss; the exact match beats both.
    expect(rankCandidates(['luna', 'rivera'], [other, typo, exact])).toEqual([exact, typo, other]);
    // Among equals the more followed comes first.
    const popular = { ...exact, followers: 500 };
    expect(rankCandidates(['luna', 'rivera'], [exact, popular])).toEqual([popular, exact]);
    expect(rankCandidates(['zzzz'], [exact])).toEqual([]);
  });
});

describe('search endpoints', () => {
  let t: TestApp;
  let luna: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    luna = await createUser(t, { roles: ['user', 'creator'], verified: true, username: 'lunarivera' });
    await t.call(
      'user.updateProfile',
      { displayName: 'Luna Rivera', about: 'Yoga and sunsets' },
      { token: luna.token },
    );
    const lunar = await createUser(t, { roles: ['user', 'creator'], verified: true, username: 'lunarfan' });
    await t.call('user.updateProfile', { displayName: 'Lunar Eclipse' }, { token: lunar.token });
    await createUser(t, { roles: ['user', 'fan'], username: 'lunarivero' });
  });
  afterAll(() => t.stop());

  it('finds Luna Rivera for "lnua", "luan", "rivra" and while typing, never a fan', async () => {
    for (const q of ['lnua', 'luan', 'rivra', 'lnua rivra', 'Luna Rivera', 'luna riv', 'riv', 'yoga']) {
      const res = await t.call('creator.search', { q });
      expect(res.status, q).toBe(200);
      expect(res.body.creators.items[0]?.user, q).toBe('lunarivera');
      expect(res.body.creators.items.map((c) => c.user)).not.toContain('lunarivero');
    }
    const none = await t.call('creator.search', { q: 'qqqqxz' });
    expect(none.body.creators.items).toEqual([]);
    expect(none.body.creators.total).toBe(0);
  });

  it('suggests creators while typing, to visitors and fans alike', async () => {
    const visitor = await t.call('search.suggest', { q: 'lnua' });
    expect(visitor.status).toBe(200);
    expect(visitor.body.creators[0]?.user).toBe('lunarivera');
    expect(visitor.body.creators.length).toBeLessThanOrEqual(6);
    const fan = await createUser(t);
    const signedIn = await t.call('search.suggest', { q: 'rivra' }, { token: fan.token });
    expect(signedIn.body.creators[0]?.user).toBe('lunarivera');
    expect((await t.call('search.suggest', { q: '' })).body.creators).toEqual([]);
  });

  it('hides a creator from someone they blocked', async () => {
    const fan = await createUser(t);
    expect((await t.call('user.block', { user: fan.username }, { token: luna.token })).status).toBe(200);
    const res = await t.call('search.suggest', { q: 'luna rivera' }, { token: fan.token });
    expect(res.body.creators.map((c) => c.user)).not.toContain('lunarivera');
  });

  it("computes a person's words as the database's spelling index does (personTerms, migration 0016)", async () => {
    await createUser(t, { roles: ['user', 'creator'], username: 'Ana_Maria.Lopez2' });
    const rows = await t.database.session((exec) =>
      exec(`SELECT u.username, p.display_name, u.name,
              (SELECT array_agg(DISTINCT t.term ORDER BY t.term) FROM search_terms t WHERE t.user_id = u.id) AS terms
            FROM users u LEFT JOIN profiles p ON p.user_id = u.id`),
    );
    expect(rows.length).toBeGreaterThan(3);
    for (const r of rows) {
      const expected = [...((r.terms as string[] | null) ?? [])].sort();
      const computed = personTerms(
        String(r.username),
        (r.display_name as string | null) ?? null,
        String(r.name),
      ).sort();
      expect(computed, String(r.username)).toEqual(expected);
    }
  });

  it('refuses a search word longer than 60 characters with a clear message', async () => {
    const res = await t.call(
      'search.suggest',
      { q: 'x'.repeat(61) },
      { headers: { 'accept-language': 'es' } },
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('Internal');
  });

  it('finds published posts by text and hashtag despite a typo, never unapproved ones', async () => {
    await createPost(t, luna, { message: 'Morning #yoga flow by the ocean' });
    await createPost(t, luna, { message: 'Secret #yoga draft' }, { approve: false });
    for (const q of ['yoga', '#yoga', 'oceann', 'yogaa', 'morning flow']) {
      const res = await t.call('search.posts', { q });
      expect(res.status, q).toBe(200);
      expect(
        res.body.posts.map((p) => p.message),
        q,
      ).toEqual(['Morning #yoga flow by the ocean']);
    }
    const res = await t.call('search.posts', { q: 'yoga' });
    expect(res.body.statistics).toMatchObject({ page: 1, limit: 30, total: 1, hasMore: false });
    expect((await t.call('search.posts', { q: 'nothinglikethis' })).body.posts).toEqual([]);
  });
});

describe('search over 10,000 creators', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 300_000);
  afterAll(() => t.stop());

  it('puts the intended creator in the top 3 for at least 95% of misspelled queries', async () => {
    const corpus = await seedCreators(t.database.db, 10_000);
    const rand = seeded(99);
    const picked = Array.from({ length: 200 }, () => corpus[Math.floor(rand() * corpus.length)]);
    let hits = 0;
    const misses: string[] = [];
    for (const c of picked) {
      if (!c) continue;
      const q = misspelledQuery(c, rand);
      const res = await t.call('creator.search', { q, limit: 3 });
      if (res.body.creators.items.some((u) => u.user === c.username)) hits++;
      else misses.push(`${q} -> ${c.displayName}`);
    }
    console.info(`search top-3: ${hits}/${picked.length}; misses: ${misses.slice(0, 10).join('; ')}`);
    expect(hits / picked.length).toBeGreaterThanOrEqual(0.95);
  }, 600_000);
});

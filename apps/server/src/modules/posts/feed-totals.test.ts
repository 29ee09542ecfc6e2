import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPost, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  vi.restoreAllMocks();
  await t?.stop();
});

/**
 * A feed's counted total (PostService.totals): counted once and reused for 30 s; past that it is
 * still answered at once while one count runs again, and the next answers carry the new count.
 * The in-memory caches measure their lifetimes with performance.now(), which the test moves.
 */
describe("a feed's counted total", () => {
  it('is reused while fresh, answered stale at once past 30 s while it is counted again, then renewed', async () => {
    const real = performance.now.bind(performance);
    let ahead = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => real() + ahead);
    /** Moves past the visitors' answer cache (5 s) too, so each read builds the page again. */
    const wait = (ms: number) => {
      ahead += ms;
    };

    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const ids: string[] = [];
    for (const message of ['one', 'two', 'three']) ids.push(await createPost(t, creator, { message }));
    const total = async () => {
      const res = await t.call('posts.list', { creator: creator.username, limit: 1 });
      expect(res.status).toBe(200);
      expect(res.body.statistics.hasMore).toBe(true);
      return res.body.statistics.total;
    };

    expect(await total()).toBe(3);
    // Another server copy takes a post down: this copy's cache is not cleared by it.
    await t.database.session((exec) => exec(`UPDATE posts SET status = 'deleted' WHERE id = '${ids[0]}'`));

    wait(6_000);
    expect(await total()).toBe(3); // fresh: the count is reused
    wait(25_000); // 31 s after the count
    expect(await total()).toBe(3); // stale: answered at once, counted again meanwhile
    await vi.waitFor(
      async () => {
        wait(6_000);
        expect(await total()).toBe(2);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});

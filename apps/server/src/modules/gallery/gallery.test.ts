import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { makeCreator } from '../../payments/money.testkit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.stop();
});
const q = (sqlText: string) => t.database.session((exec) => exec(sqlText));

describe('gallery categories', () => {
  it('refuses a category without pictures, in en and es', async () => {
    const creator = await makeCreator(t);
    const en = await t.call('gallery.saveCategory', { name: 'Empty', media: [] }, { token: creator.token });
    expect(en.status).toBe(400);
    expect(en.body.fields).toEqual({ media: 'Choose at least one picture for the category.' });
    const es = await t.call(
      'gallery.saveCategory',
      { name: 'Vacía', media: [] },
      { token: creator.token, headers: { ilang: 'es' } },
    );
    expect(es.body.fields).toEqual({ media: 'Elige al menos una imagen para la categoría.' });
  });

  it('shows an empty category to its owner only, never to fans', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    // A category whose pictures are gone (their posts were deleted) is empty.
    await q(`INSERT INTO gallery_categories (creator_id, name) VALUES ('${creator.id}', 'Emptied')`);
    const own = await t.call('gallery.get', {}, { token: creator.token });
    expect(own.body.categories.map((c) => c.name)).toEqual(['Emptied']);
    const seen = await t.call('gallery.get', { creator: creator.username }, { token: fan.token });
    expect(seen.status).toBe(200);
    expect(seen.body.categories).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import type { Message, Post } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFIED_FORM as CERT, createUser, subscribe } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { jpeg, postForm } from '../../../test/media-fixtures.ts';
import { buyCredits, ledgerHealth, makeCreator, postback } from '../../payments/money.testkit.ts';
import { approvalFields } from '../billing/billing.service.ts';

type Who = { id: string; token: string; username: string };

let t: TestApp;
let base: string;
let creator: Who;
let other: Who;
let fan: Who;
let photo: Buffer;
/** The first creator's photo (the first tests store it). */
let fileId: string;

beforeAll(async () => {
  t = await createTestApp({ EARNINGS_HOLD_DAYS: '0' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await makeCreator(t);
  other = await makeCreator(t);
  fan = await createUser(t);
  photo = await jpeg(320, 240, '#1f6fb2');
});
afterAll(async () => {
  await t?.stop();
});

async function post(who: Who, fields: Record<string, string>, files: { name: string; data: Buffer }[] = []) {
  const res = await postForm(
    base,
    '/api/v1/posts',
    who.token,
    { ...CERT, visibility: 'subscribers', ...fields },
    files,
  );
  await t.jobs.drain();
  return res;
}

async function vault(who: Who, query: Record<string, string> = {}, lang: 'en' | 'es' = 'en') {
  return t.call('vault.list', query, { token: who.token, lang });
}

async function storedFiles(ownerId: string): Promise<number> {
  const [row] = await t.database.session((exec) =>
    exec(`SELECT count(*)::int AS n FROM media WHERE owner_id = '${ownerId}'`),
  );
  return Number(row?.n);
}

describe('the vault', () => {
  it('stores a file uploaded twice once, and lists it with where it is used', async () => {
    const first = await post(creator, { message: 'one' }, [{ name: 'beach.jpg', data: photo }]);
    const second = await post(creator, { message: 'two' }, [{ name: 'beach-again.jpg', data: photo }]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    fileId = (first.body.post as Post).media[0]!._id;
    expect((second.body.post as Post).media[0]!._id).toBe(fileId);
    expect(await storedFiles(creator.id)).toBe(1);

    const list = await vault(creator);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({
      _id: fileId,
      name: 'beach.jpg',
      used: true,
      uses: { posts: 2, messages: 0, welcome: false, gallery: 0 },
    });
    expect(list.body.items[0]!.media.thumb).toContain(`/api/v1/media/${fileId}/thumb`);
  });

  it('reuses a vault file in a post, a story and a paid message without an upload', async () => {
    const reused = await post(creator, { message: 'again', vaultMedia: fileId });
    expect(reused.status).toBe(200);
    const reusedPost = reused.body.post as Post;
    expect(reusedPost.media.map((m) => m._id)).toEqual([fileId]);
    // Nothing to process: the post goes straight to review.
    expect(reusedPost.adminStatus).toBe('new');
    const story = await post(creator, { kind: 'story', vaultMedia: fileId });
    expect(story.status).toBe(200);
    expect((story.body.post as Post).media[0]!._id).toBe(fileId);

    const sent = await t.call(
      'message.send',
      { to: fan.username, message: 'for you', messageUUID: 'vault-msg-1', price: 15, vaultMedia: [fileId] },
      { token: creator.token },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const message = sent.body.message as Message;
    expect(message.files.map((f) => f._id)).toEqual([fileId]);
    expect(message.processing).toBe(false);
    expect(await storedFiles(creator.id)).toBe(1);

    const list = await vault(creator, { used: 'used' });
    expect(list.body.items[0]!.uses).toEqual({ posts: 4, messages: 1, welcome: false, gallery: 0 });
  });

  it('filters by type, use, name and date', async () => {
    const unusedRes = await postForm(base, '/api/v1/posts', creator.token, { ...CERT, message: 'temp' }, [
      { name: 'sunset.jpg', data: await jpeg(200, 200, '#e0a000') },
    ]);
    await t.jobs.drain();
    const tempPost = unusedRes.body.post as Post;
    const sunset = tempPost.media[0]!._id;
    // Taken out of its post, the file stays in the vault, unused.
    const edit = await postForm(
      base,
      `/api/v1/posts/${tempPost._id}`,
      creator.token,
      { ...CERT, message: 'text only', keepMedia: '' },
      [],
      { method: 'PUT' },
    );
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const ids = async (q: Record<string, string>) => (await vault(creator, q)).body.items.map((i) => i._id);
    expect(await ids({ used: 'unused' })).toEqual([sunset]);
    expect(await ids({ used: 'used' })).toEqual([fileId]);
    expect(await ids({ q: 'SUNS' })).toEqual([sunset]);
    expect(await ids({ type: 'video' })).toEqual([]);
    expect((await ids({ type: 'image' })).sort()).toEqual([fileId, sunset].sort());
    const today = new Date().toISOString().slice(0, 10);
    expect((await ids({ from: today, to: today })).length).toBe(2);
    expect(await ids({ to: '2020-01-01' })).toEqual([]);
    const bad = await vault(creator, { from: 'soon' }, 'es');
    expect(bad.status).toBe(400);
  });

  it('gives the pickers only files ready to attach, a page at a time (status=ready)', async () => {
    const owner = await makeCreator(t);
    const photos = await Promise.all(['#101010', '#202020', '#303030'].map((c) => jpeg(64, 64, c)));
    await post(owner, { message: 'four' }, [
      ...photos.map((data, i) => ({ name: `ready-${i}.jpg`, data })),
      { name: 'pending.jpg', data: await jpeg(64, 64, '#404040') },
    ]);
    // One file still processing (set after its job ran, so no worker can change it meanwhile).
    await t.database.session((exec) =>
      exec(`UPDATE media SET status = 'processing' WHERE owner_id = '${owner.id}' AND name = 'pending.jpg'`),
    );
    const all = await vault(owner, { limit: '2' });
    expect(all.body.statistics.total).toBe(4);
    const first = await vault(owner, { status: 'ready', limit: '2' });
    expect(first.body.statistics).toMatchObject({ total: 3, hasMore: true });
    const second = await vault(owner, { status: 'ready', limit: '2', page: '2' });
    expect(second.body.statistics).toMatchObject({ total: 3, hasMore: false });
    const names = [...first.body.items, ...second.body.items].map((i) => i.name).sort();
    expect(names).toEqual(['ready-0.jpg', 'ready-1.jpg', 'ready-2.jpg']);
    expect([...first.body.items, ...second.body.items].every((i) => i.media.status === 'ready')).toBe(true);
    expect((await vault(owner, { status: 'ready', q: 'ready-1' })).body.items.map((i) => i.name)).toEqual([
      'ready-1.jpg',
    ]);
    expect((await vault(owner, { status: 'soon' }, 'es')).status).toBe(400);
  });

  it('refuses to delete a file in use (en and es) and deletes an unused one', async () => {
    const en = await t.call('vault.remove', undefined, { token: creator.token, params: { id: fileId } });
    expect(en.status).toBe(409);
    expect(en.body.code).toBe('MEDIA_IN_USE');
    expect(en.body.message).toContain('Remove it from there first');
    const es = await t.call('vault.remove', undefined, {
      token: creator.token,
      params: { id: fileId },
      lang: 'es',
    });
    expect(es.body.message).toContain('Quítalo de ahí primero');
    expect((await vault(creator, { used: 'used' })).body.items).toHaveLength(1);

    const [unused] = (await vault(creator, { used: 'unused' })).body.items;
    const ok = await t.call('vault.remove', undefined, { token: creator.token, params: { id: unused!._id } });
    expect(ok.status).toBe(200);
    expect((await vault(creator)).body.items.map((i) => i._id)).toEqual([fileId]);
  });

  it('is private: another creator, a fan and a visitor can neither list, delete nor attach it', async () => {
    expect((await vault(other)).body.items).toEqual([]);
    expect((await vault(fan)).status).toBe(403);
    expect((await t.call('vault.list', {})).status).toBe(401);
    for (const who of [other, fan]) {
      const del = await t.call('vault.remove', undefined, { token: who.token, params: { id: fileId } });
      expect(del.status).toBe(404);
    }
    expect((await t.call('vault.remove', undefined, { params: { id: fileId } })).status).toBe(401);
    const stolen = await post(other, { message: 'mine now', vaultMedia: fileId });
    expect(stolen.status).toBe(404);
    const dm = await t.call(
      'message.send',
      { to: creator.username, message: 'look', messageUUID: 'steal-1', vaultMedia: [fileId] },
      { token: fan.token },
    );
    expect(dm.status).toBe(404);
    const welcome = await t.call(
      'creator.saveWelcome',
      { text: 'Hi', active: true, price: 0, vaultMedia: [fileId] },
      { token: other.token },
    );
    expect(welcome.status).toBe(404);
  });
});

describe('paid media in the welcome message', () => {
  it('sends the vault files locked until the new subscriber pays, through the ledger', async () => {
    const seller = await makeCreator(t, '10');
    const upload = await post(seller, { message: 'teaser' }, [
      { name: 'welcome.jpg', data: await jpeg(240, 240, '#30a050') },
    ]);
    const mediaId = (upload.body.post as Post).media[0]!._id;
    const noFiles = await t.call(
      'creator.saveWelcome',
      { text: 'Hi', active: true, price: 20, vaultMedia: [] },
      { token: seller.token, lang: 'es' },
    );
    expect(noFiles.status).toBe(400);
    expect(noFiles.body.fields).toHaveProperty('price');
    const saved = await t.call(
      'creator.saveWelcome',
      { text: 'Welcome! A gift for you.', active: true, price: 20, vaultMedia: [mediaId] },
      { token: seller.token },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.welcome).toMatchObject({ text: 'Welcome! A gift for you.', price: 20 });
    expect(saved.body.welcome?.media.map((m) => m._id)).toEqual([mediaId]);
    expect((await vault(seller)).body.items[0]!.uses.welcome).toBe(true);

    const subscriber = await createUser(t);
    const res = await t.call(
      'checkout.subscription',
      { creator: seller.username },
      { token: subscriber.token },
    );
    const row = await t.services.moneyStore.billing.checkout(res.body.checkout);
    expect(await postback(t, t.services.billing.signSandbox(approvalFields(row!, new Date())))).toBe(200);
    await t.jobs.drain();

    const chat = await t.call('message.conversation', { user: seller.username }, { token: subscriber.token });
    const [welcome] = chat.body.messages;
    expect(welcome).toMatchObject({ message: 'Welcome! A gift for you.', price: 20, locked: true });
    expect(welcome!.files[0]!.src).toBeNull();
    await buyCredits(t, subscriber);
    const paid = await t.call('messages.unlock', undefined, {
      token: subscriber.token,
      params: { id: welcome!._id },
    });
    expect(paid.body).toMatchObject({ charged: 20 });
    const after = await t.call(
      'message.conversation',
      { user: seller.username },
      { token: subscriber.token },
    );
    expect(after.body.messages[0]).toMatchObject({ locked: false });
    expect(after.body.messages[0]!.files[0]!.src).toContain(mediaId);
    expect(await storedFiles(seller.id)).toBe(1);
    const health = await ledgerHealth(t);
    expect(health.mismatches).toEqual([]);
  });
});

describe('vault folders', () => {
  it('creates, renames and deletes folders, moves files in and out and filters by folder', async () => {
    const owner = await makeCreator(t);
    const a = await post(owner, { message: 'a' }, [{ name: 'a.jpg', data: await jpeg(100, 100, '#101010') }]);
    const b = await post(owner, { message: 'b' }, [{ name: 'b.jpg', data: await jpeg(100, 100, '#202020') }]);
    const fileA = (a.body.post as Post).media[0]!._id;
    const fileB = (b.body.post as Post).media[0]!._id;

    const made = await t.call('vault.createFolder', { name: '  Beach  ' }, { token: owner.token });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ name: 'Beach', files: 0 });
    const folder = made.body._id;
    const twice = await t.call('vault.createFolder', { name: 'beach' }, { token: owner.token, lang: 'es' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toContain('Ya tienes una carpeta con este nombre');
    const empty = await t.call('vault.createFolder', { name: '   ' }, { token: owner.token });
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toHaveProperty('name');
    const long = await t.call('vault.createFolder', { name: 'x'.repeat(61) }, { token: owner.token });
    expect(long.status).toBe(400);

    // One id that is not the owner's moves nothing.
    const mixed = await t.call('vault.move', { ids: [fileA, fileId], folder }, { token: owner.token });
    expect(mixed.status).toBe(404);
    expect((await vault(owner, { folder })).body.items).toEqual([]);

    const moved = await t.call('vault.move', { ids: [fileA], folder }, { token: owner.token });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const inFolder = await vault(owner, { folder });
    expect(inFolder.body.items.map((i) => i._id)).toEqual([fileA]);
    expect(inFolder.body.items[0]!.folder).toBe(folder);
    expect((await vault(owner, { folder: 'none' })).body.items.map((i) => i._id)).toEqual([fileB]);
    expect((await vault(owner, { folder: 'all' })).body.items).toHaveLength(2);

    const renamed = await t.call(
      'vault.renameFolder',
      { name: 'Summer' },
      { token: owner.token, params: { id: folder } },
    );
    expect(renamed.body).toMatchObject({ _id: folder, name: 'Summer', files: 1 });
    await t.call('vault.createFolder', { name: 'Archive' }, { token: owner.token });
    const listed = await t.call('vault.folders', undefined, { token: owner.token });
    expect(listed.body).toEqual({
      folders: [
        { _id: expect.any(String), name: 'Archive', files: 0 },
        { _id: folder, name: 'Summer', files: 1 },
      ],
      unfiled: 1,
    });
    const clash = await t.call(
      'vault.renameFolder',
      { name: 'ARCHIVE' },
      { token: owner.token, params: { id: folder } },
    );
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('VAULT_FOLDER_TAKEN');

    const out = await t.call('vault.move', { ids: [fileA], folder: null }, { token: owner.token });
    expect(out.status).toBe(200);
    expect((await vault(owner, { folder })).body.items).toEqual([]);
    await t.call('vault.move', { ids: [fileA, fileB], folder }, { token: owner.token });
    const gone = await t.call('vault.deleteFolder', undefined, {
      token: owner.token,
      params: { id: folder },
    });
    expect(gone.status).toBe(200);
    // Deleting a folder keeps its files, in no folder.
    expect((await vault(owner, { folder: 'none' })).body.items).toHaveLength(2);
    expect(await storedFiles(owner.id)).toBe(2);
    expect((await vault(owner, { folder })).status).toBe(404);
  });

  it('is private: others get 404, fans 403, visitors 401', async () => {
    const owner = await makeCreator(t);
    const folder = (await t.call('vault.createFolder', { name: 'Mine' }, { token: owner.token })).body._id;
    expect((await t.call('vault.folders', undefined, { token: other.token })).body.folders).toEqual([]);
    expect((await vault(other, { folder })).status).toBe(404);
    for (const [who, status] of [
      [other, 404],
      [fan, 403],
    ] as const) {
      const id = { params: { id: folder }, token: who.token };
      expect((await t.call('vault.renameFolder', { name: 'Stolen' }, id)).status).toBe(status);
      expect((await t.call('vault.deleteFolder', undefined, id)).status).toBe(status);
      expect((await t.call('vault.move', { ids: [fileId], folder }, { token: who.token })).status).toBe(
        status,
      );
      expect(
        (await t.call('vault.file', undefined, { token: who.token, params: { id: fileId } })).status,
      ).toBe(status);
    }
    expect((await t.call('vault.folders', undefined, { token: fan.token })).status).toBe(403);
    expect((await t.call('vault.createFolder', { name: 'x' }, { token: fan.token })).status).toBe(403);
    // The creator cannot put their file into someone else's folder either.
    expect((await t.call('vault.move', { ids: [fileId], folder }, { token: creator.token })).status).toBe(
      404,
    );
    for (const call of [
      t.call('vault.folders', undefined),
      t.call('vault.createFolder', { name: 'x' }),
      t.call('vault.renameFolder', { name: 'x' }, { params: { id: folder } }),
      t.call('vault.deleteFolder', undefined, { params: { id: folder } }),
      t.call('vault.move', { ids: [fileId], folder: null }),
      t.call('vault.file', undefined, { params: { id: fileId } }),
    ])
      expect((await call).status).toBe(401);
    const listed = await t.call('vault.folders', undefined, { token: owner.token });
    expect(listed.body.folders).toEqual([{ _id: folder, name: 'Mine', files: 0 }]);
  });
});

describe('where a file is used and what it earned', () => {
  it('shows each paid post and message holding it with its sales, from the ledger', async () => {
    const seller = await makeCreator(t);
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    const buyer = await createUser(t);
    const both = await post(seller, { message: 'Two photos', visibility: 'ppv', price: '30' }, [
      { name: 'red.jpg', data: await jpeg(120, 120, '#c03030') },
      { name: 'green.jpg', data: await jpeg(120, 120, '#30c030') },
    ]);
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    const ppv = both.body.post as Post;
    const [red, green] = ppv.media.map((m) => m._id) as [string, string];
    expect(
      (await t.call('admin.postReview', { id: ppv._id, adminStatus: 'approved' }, { token: admin.token }))
        .status,
    ).toBe(200);
    const free = await post(seller, { message: 'Free teaser', visibility: 'free', vaultMedia: red });
    expect(free.status).toBe(200);

    await buyCredits(t, buyer);
    expect(
      (await t.call('posts.unlock', undefined, { token: buyer.token, params: { id: ppv._id } })).body,
    ).toMatchObject({ charged: 30 });
    const sent = await t.call(
      'message.send',
      { to: buyer.username, message: 'Just red', messageUUID: 'earn-1', price: 15, vaultMedia: [red] },
      { token: seller.token },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const messageId = (sent.body.message as Message)._id;
    expect(
      (await t.call('messages.unlock', undefined, { token: buyer.token, params: { id: messageId } })).body,
    ).toMatchObject({ charged: 15 });

    // The creator's share of each sale, read straight from the ledger.
    const share = async (where: string) => {
      const [row] = await t.database.session((exec) =>
        exec(`SELECT coalesce(sum(e.amount), 0)::int AS n FROM ledger_entries e
          JOIN ledger_transactions lt ON lt.id = e.transaction_id
          WHERE e.account = 'creator:${seller.id}' AND e.currency = 'cents' AND ${where}`),
      );
      return Number(row?.n);
    };
    const postCents = await share(`lt.post_id = '${ppv._id}' AND lt.kind = 'unlock'`);
    const messageCents = await share(`lt.message_id = '${messageId}' AND lt.kind = 'message_unlock'`);
    expect(postCents).toBeGreaterThan(0);
    expect(messageCents).toBeGreaterThan(0);

    const items = new Map((await vault(seller)).body.items.map((i) => [i._id, i]));
    // An item with several files counts in full for each of them.
    expect(items.get(red)!.earned).toEqual({ sales: 2, credits: 45, earnings: postCents + messageCents });
    expect(items.get(green)!.earned).toEqual({ sales: 1, credits: 30, earnings: postCents });

    const detail = await t.call('vault.file', undefined, { token: seller.token, params: { id: red } });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.item).toMatchObject({ _id: red, uses: { posts: 2, messages: 1 } });
    expect(detail.body.posts).toEqual([
      expect.objectContaining({
        _id: (free.body.post as Post)._id,
        kind: 'post',
        text: 'Free teaser',
        live: true,
        sales: 0,
        credits: 0,
        earnings: 0,
      }),
      expect.objectContaining({ _id: ppv._id, price: 30, sales: 1, credits: 30, earnings: postCents }),
    ]);
    expect(detail.body.messages).toEqual([
      {
        _id: messageId,
        to: buyer.username,
        recipients: 1,
        text: 'Just red',
        date: expect.any(String),
        price: 15,
        sales: 1,
        credits: 15,
        earnings: messageCents,
      },
    ]);
    expect(detail.body.welcome).toBeNull();
    const greenDetail = await t.call('vault.file', undefined, { token: seller.token, params: { id: green } });
    expect(greenDetail.body.messages).toEqual([]);
    expect(greenDetail.body.posts.map((p) => p._id)).toEqual([ppv._id]);

    // The sale stays with the file after the post is deleted; the deleted post is marked so.
    expect(
      (await t.call('posts.delete', undefined, { token: seller.token, params: { id: ppv._id } })).status,
    ).toBe(200);
    const after = await t.call('vault.file', undefined, { token: seller.token, params: { id: green } });
    expect(after.body.posts).toEqual([expect.objectContaining({ _id: ppv._id, live: false, sales: 1 })]);
    expect(after.body.item.earned).toEqual({ sales: 1, credits: 30, earnings: postCents });
    expect((await ledgerHealth(t)).mismatches).toEqual([]);
  });

  it('shows a paid mass message once, with its recipients and the sales of all its copies', async () => {
    const seller = await makeCreator(t);
    const fans = [await createUser(t), await createUser(t)];
    for (const f of fans) await subscribe(t, f.id, seller.id);
    const upload = await post(seller, { message: 'mass' }, [
      { name: 'mass.jpg', data: await jpeg(90, 90, '#4040c0') },
    ]);
    const file = (upload.body.post as Post).media[0]!._id;
    const mass = await t.call(
      'message.mass',
      { message: 'For all of you', messageUUID: 'mass-earn-1', price: 10, vaultMedia: [file] },
      { token: seller.token },
    );
    expect(mass.status, JSON.stringify(mass.body)).toBe(200);
    await t.jobs.drain();
    const buyer = fans[0]!;
    await buyCredits(t, buyer);
    const chat = await t.call('message.conversation', { user: seller.username }, { token: buyer.token });
    const copy = chat.body.messages.find((m) => m.message === 'For all of you')!;
    expect(
      (await t.call('messages.unlock', undefined, { token: buyer.token, params: { id: copy._id } })).body,
    ).toMatchObject({ charged: 10 });
    const detail = await t.call('vault.file', undefined, { token: seller.token, params: { id: file } });
    expect(detail.body.messages).toEqual([
      expect.objectContaining({ to: null, recipients: 2, price: 10, sales: 1, credits: 10 }),
    ]);
    expect(detail.body.item.earned).toMatchObject({ sales: 1, credits: 10 });

    // Migration 0024 names the message of unlocks recorded before the column existed.
    const backfill = readFileSync(
      new URL('../../db/migrations/0024_vault_folders.sql', import.meta.url),
      'utf8',
    )
      .split('--> statement-breakpoint')
      .find((statement) => statement.includes('UPDATE "ledger_transactions"'))!;
    await t.database.session(async (exec) => {
      await exec(`UPDATE ledger_transactions SET message_id = NULL WHERE creator_id = '${seller.id}'`);
      await exec(backfill);
    });
    const again = await t.call('vault.file', undefined, { token: seller.token, params: { id: file } });
    expect(again.body).toEqual(detail.body);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { injectShareMeta, nameIndexHtml } from './share.ts';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="Fanverse: a subscription platform." />
    <title>Fanverse</title>
  </head>
  <body><div id="root"></div></body>
</html>`;

describe('link previews', () => {
  let t: TestApp;
  let creator: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    creator = await createUser(t, { roles: ['user', 'creator'], verified: true, username: 'sharedluna' });
    await t.call(
      'user.updateProfile',
      { displayName: 'Luna <Rivera>', about: 'Yoga & "sunsets"' },
      { token: creator.token },
    );
  });
  afterAll(() => t.stop());

  it('describes a creator page by handle, escaped, and nothing for a fan or an unknown path', async () => {
    const meta = await t.services.share.metaFor('/SharedLuna');
    expect(meta).toMatchObject({
      title: expect.stringContaining('Luna <Rivera> (@sharedluna)'),
      type: 'profile',
    });
    expect(meta?.description).toBe('Yoga & "sunsets"');
    const html = injectShareMeta(
      INDEX,
      meta ?? { title: '', description: '', image: null, type: 'profile' },
      'https://fv.example',
      '/SharedLuna',
    );
    expect(html).toContain('<meta property="og:title" content="Luna &lt;Rivera&gt; (@sharedluna)');
    expect(html).toContain('<meta property="og:description" content="Yoga &amp; &quot;sunsets&quot;" />');
    expect(html).toContain('<meta property="og:url" content="https://fv.example/SharedLuna" />');
    expect(html).toContain('<title>Luna &lt;Rivera&gt;');
    expect(html).not.toContain('a subscription platform');
    const fan = await createUser(t);
    expect(await t.services.share.metaFor(`/${fan.username}`)).toBeNull();
    expect(await t.services.share.metaFor('/nobody-here')).toBeNull();
    expect(await t.services.share.metaFor('/help')).toBeNull();
  });

  it('shows a free post text, never a locked post text or any post media, and nothing for an unapproved post', async () => {
    const free = await createPost(t, creator, { message: 'Free sunrise session' });
    const locked = await createPost(t, creator, { message: 'Secret paid set', visibility: 'ppv', price: 10 });
    const pending = await createPost(t, creator, { message: 'Not yet' }, { approve: false });
    expect((await t.services.share.metaFor(`/post/${free}`))?.description).toBe('Free sunrise session');
    const lockedMeta = await t.services.share.metaFor(`/post/${locked}`);
    expect(lockedMeta?.description).not.toContain('Secret');
    expect(lockedMeta?.type).toBe('article');
    expect(await t.services.share.metaFor(`/post/${pending}`)).toBeNull();
    expect(await t.services.share.metaFor('/post/00000000-0000-0000-0000-000000000000')).toBeNull();
  });
});

describe('index.html of an instance', () => {
  it('carries the configured app name, escaped, in its title and in the brand of its shell', () => {
    const page = INDEX.replace(
      '<div id="root"></div>',
      '<div id="root"><header class="app-header"><span class="app-header__logo">Fanverse</span></header></div>',
    );
    const html = nameIndexHtml(page, 'Stars & <Co>');
    expect(html).toContain('<title>Stars &amp; &lt;Co&gt;</title>');
    expect(html).toContain('<span class="app-header__logo">Stars &amp; &lt;Co&gt;</span>');
    expect(html).not.toContain('>Fanverse<');
  });
});

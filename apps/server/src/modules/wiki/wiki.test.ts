import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { excerptOf, renderMarkdown } from './wiki.service.ts';

describe('wiki (help knowledge base)', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { roles: ['user', 'admin'] });
  });
  afterAll(() => t.stop());

  it('lets only administrators write and delete articles', async () => {
    const article = {
      slug: 'buying-credits',
      language: 'en',
      title: 'Buying credits',
      body: 'Open **My credits**.',
    };
    expect((await t.call('wiki.save', article)).status).toBe(401);
    const fan = await createUser(t);
    expect((await t.call('wiki.save', article, { token: fan.token })).status).toBe(403);
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    expect((await t.call('wiki.save', article, { token: creator.token })).status).toBe(403);
    const coord = await createUser(t, { roles: ['user', 'coord'] });
    expect((await t.call('wiki.save', article, { token: coord.token })).status).toBe(403);

    const saved = await t.call('wiki.save', article, { token: admin.token });
    expect(saved.status).toBe(200);
    expect(saved.body.article).toMatchObject({ slug: 'buying-credits', language: 'en', languages: ['en'] });
    expect(saved.body.article.html).toContain('<strong>My credits</strong>');

    const id = saved.body.article.id;
    expect((await t.call('wiki.delete', undefined, { token: fan.token, params: { id } })).status).toBe(403);
    expect((await t.call('wiki.delete', undefined, { params: { id } })).status).toBe(401);
    expect((await t.call('wiki.delete', undefined, { token: admin.token, params: { id } })).status).toBe(200);
    expect((await t.call('wiki.article', {}, { params: { slug: 'buying-credits' } })).status).toBe(404);
    expect((await t.call('wiki.delete', undefined, { token: admin.token, params: { id } })).status).toBe(404);
  });

  it('answers articles in the caller language, falls back to English, and rewrites by slug', async () => {
    const en = {
      slug: 'cancel-subscription',
      language: 'en',
      title: 'Cancelling a subscription',
      body: 'Open My subscriptions and press Cancel.',
    };
    await t.call('wiki.save', en, { token: admin.token });
    const onlyEn = await t.call('wiki.article', {}, { params: { slug: 'cancel-subscription' }, lang: 'es' });
    expect(onlyEn.body.article.language).toBe('en');
    await t.call(
      'wiki.save',
      {
        ...en,
        language: 'es',
        title: 'Cancelar una suscripción',
        body: 'Abre Mis suscripciones y pulsa Cancelar.',
      },
      { token: admin.token },
    );
    const es = await t.call('wiki.article', {}, { params: { slug: 'cancel-subscription' }, lang: 'es' });
    expect(es.body.article).toMatchObject({
      language: 'es',
      title: 'Cancelar una suscripción',
      languages: ['en', 'es'],
    });
    const rewritten = await t.call(
      'wiki.save',
      { ...en, title: 'Cancel a subscription' },
      { token: admin.token },
    );
    expect(rewritten.body.article.id).toBe(onlyEn.body.article.id);
    expect(
      (await t.call('wiki.article', { lang: 'en' }, { params: { slug: 'cancel-subscription' } })).body.article
        .title,
    ).toBe('Cancel a subscription');
  });

  it('searches with each language stemming, best match first, and pages', async () => {
    await t.call(
      'wiki.save',
      {
        slug: 'payouts',
        language: 'en',
        title: 'Payouts',
        body: 'Creators are paid weekly for their subscriptions.',
      },
      { token: admin.token },
    );
    await t.call(
      'wiki.save',
      {
        slug: 'verify-identity',
        language: 'es',
        title: 'Verificar tu identidad',
        body: 'Sube tres fotos de tu documento para verificarte.',
      },
      { token: admin.token },
    );
    const found = await t.call('wiki.list', { q: 'subscription' }, { lang: 'en' });
    expect(found.status).toBe(200);
    expect(found.body.articles.map((a) => a.slug)).toEqual(
      expect.arrayContaining(['cancel-subscription', 'payouts']),
    );
    expect(found.body.articles.every((a) => a.language === 'en')).toBe(true);
    const es = await t.call('wiki.list', { q: 'documentos' }, { lang: 'es' });
    expect(es.body.articles.map((a) => a.slug)).toEqual(['verify-identity']);
    const byTitle = await t.call('wiki.list', { q: 'Payo', lang: 'en' });
    expect(byTitle.body.articles.map((a) => a.slug)).toEqual(['payouts']);
    const paged = await t.call('wiki.list', { lang: 'en', limit: 1, page: 2 });
    expect(paged.body.statistics).toMatchObject({ page: 2, limit: 1, total: 2, hasMore: false });
    expect(paged.body.articles.map((a) => a.slug)).toEqual(['payouts']);
    expect((await t.call('wiki.list', { lang: 'fr' as never })).status).toBe(400);
  });

  it('refuses bad articles with field errors in the caller language', async () => {
    const bad = await t.call(
      'wiki.save',
      { slug: 'Not A Slug', language: 'es', title: '', body: 'x' },
      { token: admin.token, lang: 'es' },
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('minúsculas');
    expect((await t.call('wiki.article', {}, { params: { slug: 'NOPE!' } })).status).toBe(400);
  });

  it('renders Markdown without raw HTML or script links', () => {
    const html = renderMarkdown(
      '# Hi\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) [ok](https://example.com)',
    );
    expect(html).toContain('<h1>Hi</h1>');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('href="https://example.com"');
    expect(excerptOf('Steps:\n\n1. Open it.\n- Press it.')).toBe('Steps: Open it. Press it.');
    expect(excerptOf('## Title\n\nSee [the page](/help) and **bold** text.')).toBe(
      'Title See the page and bold text.',
    );
  });
});

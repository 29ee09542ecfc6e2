// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import i18n, { i18nReady } from './i18n.ts';
import { useSession } from './session.store.ts';
import namespaces from './startupNamespaces.json';

describe('catalogues load per language and namespace', () => {
  it('starts with the start-up namespaces of the active language only', async () => {
    await i18nReady;
    expect(i18n.language).toBe('en');
    expect(namespaces.startup.filter((ns) => !i18n.hasResourceBundle('en', ns))).toEqual([]);
    expect(i18n.hasResourceBundle('en', 'legal')).toBe(false);
    expect(i18n.hasResourceBundle('es', 'common')).toBe(false);
    expect(i18n.t('loading')).toBe('Loading…');
  });

  it('loads a namespace on first use', async () => {
    await i18n.loadNamespaces('legal');
    expect(i18n.hasResourceBundle('en', 'legal')).toBe(true);
  });

  it('switches language only once the new catalogues are in: no untranslated key in between', async () => {
    useSession.getState().setLanguage('es');
    // Still English while Spanish loads (never the raw key).
    expect(i18n.t('loading')).toBe('Loading…');
    await expect.poll(() => i18n.language).toBe('es');
    expect(i18n.t('loading')).toBe('Cargando…');
    // Every namespace loaded so far came in Spanish with the switch.
    for (const ns of [...namespaces.startup, 'legal']) expect(i18n.hasResourceBundle('es', ns)).toBe(true);
    await expect.poll(() => document.documentElement.lang).toBe('es');
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = import.meta.dirname;
const LANGUAGES = ['en', 'es'] as const;

/** Every leaf key of a catalogue as a dotted path (array items by index). */
function keysOf(value: unknown, prefix = ''): string[] {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
  }
  return [prefix];
}

function catalogue(language: string, file: string): unknown {
  return JSON.parse(readFileSync(join(root, language, file), 'utf8'));
}

const namespaces = [...new Set(LANGUAGES.flatMap((language) => readdirSync(join(root, language))))].sort();

describe('locale catalogues', () => {
  it('has the same namespace files in en and es', () => {
    for (const language of LANGUAGES) expect(readdirSync(join(root, language)).sort()).toEqual(namespaces);
  });

  it.each(namespaces)('%s has exactly the same keys in en and es', (file) => {
    const en = keysOf(catalogue('en', file)).sort();
    const es = keysOf(catalogue('es', file)).sort();
    expect(
      es.filter((key) => !en.includes(key)),
      `keys only in es/${file}`,
    ).toEqual([]);
    expect(
      en.filter((key) => !es.includes(key)),
      `keys missing from es/${file}`,
    ).toEqual([]);
  });

  it.each(namespaces)('%s has no empty texts except the optional dates', (file) => {
    for (const language of LANGUAGES) {
      const json = catalogue(language, file);
      const empty = keysOf(json).filter((key) => {
        const value = key
          .split('.')
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], json);
        return value === '' && !key.endsWith('.updated');
      });
      expect(empty, `${language}/${file}`).toEqual([]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import {
  BUDGETS,
  HOME_CHUNKS,
  initialFiles,
  overBudget,
  type Result,
} from '../../../../scripts/web-budget.mjs';

// scripts/web-budget.mjs measures the built app (npm test runs it after the build); this checks
// what it counts on a manifest of known shape.
const manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js', '_i18n.js'], css: [] },
  '_react.js': { file: 'assets/react.js' },
  '_i18n.js': { file: 'assets/i18n.js', imports: ['_react.js'] },
  '_styles.css': { file: 'assets/app.css' },
  'src/features/home/HomePage.tsx': { file: 'assets/HomePage.js', imports: ['_feed.js', '_styles.css'] },
  '_feed.js': { file: 'assets/feed.js', imports: ['_react.js'] },
  'src/features/live/LivePage.tsx': { file: 'assets/LivePage.js', imports: ['_hls.js'] },
  '_hls.js': { file: 'assets/hls.js' },
};

describe('web budget', () => {
  it('counts the entry and its static imports once, without lazy chunks', () => {
    expect(initialFiles(manifest)).toEqual(['assets/index.js', 'assets/react.js', 'assets/i18n.js']);
  });

  it('adds the chunks the home page loads at start-up, JavaScript only', () => {
    expect(initialFiles(manifest, ['src/features/home/HomePage.tsx'])).toEqual([
      'assets/index.js',
      'assets/react.js',
      'assets/i18n.js',
      'assets/HomePage.js',
      'assets/feed.js',
    ]);
  });

  it('fails on a chunk the manifest lacks (a renamed page or catalogue)', () => {
    expect(() => initialFiles(manifest, ['src/features/home/Gone.tsx'])).toThrow(/no chunk/);
  });

  it('start-up counts the home page and the start-up catalogues in English', () => {
    expect(HOME_CHUNKS[0]).toBe('src/features/home/HomePage.tsx');
    expect(HOME_CHUNKS).toContain('src/locales/en/common.json');
  });

  it('reports each figure over its budget', () => {
    const figure = (total: number) => ({ files: [], total });
    const result = (initial: number, startup: number): Result => ({
      initial: figure(initial),
      startup: figure(startup),
      budgets: BUDGETS,
    });
    expect(BUDGETS.initial).toBe(170 * 1024);
    expect(overBudget(result(BUDGETS.initial, BUDGETS.startup))).toEqual([]);
    expect(overBudget(result(BUDGETS.initial + 1, BUDGETS.startup))).toEqual(['initial']);
    expect(overBudget(result(0, BUDGETS.startup + 1))).toEqual(['startup']);
  });
});

import { describe, expect, it } from 'vitest';
import { mergeSection } from './sections.ts';

const M = { start: '<!-- a:start -->', end: '<!-- a:end -->' };

describe('benchmark report sections', () => {
  it('replaces its own section and keeps the others', () => {
    const text = '# Benchmarks\n\n<!-- a:start -->\nold\n<!-- a:end -->\n\n## Other\nkept\n';
    expect(mergeSection(text, M, 'new\n')).toBe(
      '# Benchmarks\n\n<!-- a:start -->\nnew\n<!-- a:end -->\n\n## Other\nkept\n',
    );
  });
  it('adds a missing section at the end, or under the title when first', () => {
    const text = '# Benchmarks\n\n## Other\nkept\n';
    expect(mergeSection(text, M, 'x')).toBe(
      '# Benchmarks\n\n## Other\nkept\n\n<!-- a:start -->\nx\n<!-- a:end -->\n',
    );
    expect(mergeSection(text, M, 'x', { first: true })).toBe(
      '# Benchmarks\n\n<!-- a:start -->\nx\n<!-- a:end -->\n## Other\nkept\n',
    );
  });
});

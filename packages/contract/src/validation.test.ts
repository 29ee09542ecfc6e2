import { describe, expect, it } from 'vitest';
import { CLIENT_ERRORS } from './client-errors.ts';
import { screenClassOf } from './constants.ts';
import { ERRORS } from './errors.ts';
import { nullBytePath } from './field-rules.ts';
import { pageStatistics } from './paging.ts';
import { ageOn, EMAIL_PATTERN, hasSpecialCharacters, isRealIsoDate, PHONE_PATTERN } from './validation.ts';

describe('field rules of spec §5', () => {
  it.each(['a@b.co', 'first.last@mail.example.org'])('accepts the email %s', (v) => {
    expect(EMAIL_PATTERN.test(v)).toBe(true);
  });
  it.each(['a@b.c', 'ab.co', 'a b@c.co', 'a@@b.co', 'a@b', ''])('refuses the email %s', (v) => {
    expect(EMAIL_PATTERN.test(v)).toBe(false);
  });
  it.each(['+57 300 123 4567', '(57) 300-123-4567', '3001234567', '+1 555.123/4567'])(
    'accepts the phone %s',
    (v) => {
      expect(PHONE_PATTERN.test(v)).toBe(true);
    },
  );
  it.each(['phone', '+57 abc', '++57 300', ''])('refuses the phone %s', (v) => {
    expect(PHONE_PATTERN.test(v)).toBe(false);
  });
  it('computes age in whole years, counting the birthday itself', () => {
    expect(ageOn('2008-11-21', '2026-11-21')).toBe(18);
    expect(ageOn('2008-11-22', '2026-11-21')).toBe(17);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
  });
  it('knows real dates', () => {
    expect(isRealIsoDate('2024-02-29')).toBe(true);
    expect(isRealIsoDate('2023-02-29')).toBe(false);
    expect(isRealIsoDate('15/06/1995')).toBe(false);
  });
  it('spots usernames with special characters', () => {
    expect(hasSpecialCharacters('ana.maria!')).toBe(true);
    expect(hasSpecialCharacters('anamaria1')).toBe(false);
  });
});

describe('paging', () => {
  it('hasMore is total greater than page times limit', () => {
    expect(pageStatistics(2, 10, 25).hasMore).toBe(true);
    expect(pageStatistics(3, 10, 25).hasMore).toBe(false);
  });
});

describe('screen classes', () => {
  it('follow the decided breakpoints', () => {
    expect([375, 767, 768, 1024, 1025, 1920, 1921].map(screenClassOf)).toEqual([
      'mobile',
      'mobile',
      'tablet',
      'tablet',
      'desktop',
      'desktop',
      'tv',
    ]);
  });
});

describe('error catalogue', () => {
  it('has an English and a Spanish text and an HTTP status for every code', () => {
    for (const [code, e] of Object.entries(ERRORS)) {
      expect(e.en, code).not.toBe('');
      expect(e.es, code).not.toBe('');
      expect(e.status, code).toBeGreaterThanOrEqual(400);
    }
  });

  it("takes the client's own errors (the web app's first load) from the same entries", () => {
    for (const [code, e] of Object.entries(CLIENT_ERRORS)) {
      expect(ERRORS[code as keyof typeof ERRORS], code).toBe(e);
    }
  });
});

describe('nullBytePath (every request input passes through it)', () => {
  it.each<[unknown, string | undefined]>([
    [{}, undefined],
    [{ view: 'home', page: '2' }, undefined],
    [{ a: { b: ['x', 'y', { c: 'ok' }] } }, undefined],
    [null, undefined],
    ['a\0b', '_'],
    [{ view: 'ho\0me' }, 'view'],
    [{ a: { b: ['x', 'y\0'] } }, 'a.b.1'],
    [{ a: [{ 'k\0ey': 'v' }] }, 'a.0.key'],
    [{ 'x\0': 'v' }, 'x'],
  ])('%j → %s', (input, path) => {
    expect(nullBytePath(input)).toBe(path);
  });

  it('names the first field in the input’s order', () => {
    expect(nullBytePath({ a: 'ok', b: { c: '\0' }, d: '\0' })).toBe('b.c');
  });

  // 100,000 levels: a JSON body of 200 KB. Each level once copied the whole path so far (quadratic:
  // 48 s of CPU for this input), so one request could hold the event loop.
  it('takes deeply nested input without overflowing the stack, in linear time', () => {
    let deep: unknown = 'x\0';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nullBytePath(deep)?.split('.').length).toBe(100_000);
  });
});

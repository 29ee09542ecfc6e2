import { describe, expect, it } from 'vitest';
import { instantFormatter, validTimeZone } from './dates.ts';

describe('one time zone for dates', () => {
  it('formats an instant on the day of the platform time zone, whatever the browser', () => {
    // 03:30 UTC on Nov 23 is still Nov 22 in Bogotá (UTC−5).
    const iso = '2026-11-23T03:30:00.000Z';
    expect(instantFormatter('en', { dateStyle: 'medium' }, 'America/Bogota')(iso)).toBe('Nov 22, 2026');
    expect(instantFormatter('en', { dateStyle: 'medium' }, 'UTC')(iso)).toBe('Nov 23, 2026');
    expect(instantFormatter('es', { dateStyle: 'medium' }, 'America/Bogota')(iso)).toBe('22 nov 2026');
    expect(instantFormatter('en', { dateStyle: 'medium' }, 'UTC')(null)).toBe('—');
  });

  it('ignores an unknown zone instead of failing', () => {
    expect(validTimeZone('Mars/Olympus')).toBeUndefined();
    expect(validTimeZone('Europe/Madrid')).toBe('Europe/Madrid');
  });
});

import { useMemo } from 'react';
import { useSession } from './session.store.ts';

/**
 * Building an Intl formatter costs far more than using one (a fraction of a millisecond each, on
 * every store change for the zone check, once per card for the formatters): each zone is checked
 * once and each formatter built once.
 */
const checkedZones = new Map<string, boolean>();
const instantFormatters = new Map<string, (iso: string | null | undefined) => string>();

/**
 * One time zone for every date a person sees: the platform's (config TIMEZONE, sent in the
 * start-up data), not the browser's. So a payment is on the same day in the fan's transactions
 * and in the admin's sales, which the server groups by day in that zone too.
 */
export function validTimeZone(zone: string | null | undefined): string | undefined {
  if (!zone) return undefined;
  let valid = checkedZones.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    checkedZones.set(zone, valid);
  }
  return valid ? zone : undefined;
}

/** Formats instants (ISO strings) in the platform time zone and the given language. */
export function instantFormatter(language: string, options: Intl.DateTimeFormatOptions, zone?: string) {
  const key = `${language} ${zone ?? ''} ${JSON.stringify(options)}`;
  let formatter = instantFormatters.get(key);
  if (!formatter) {
    const format = new Intl.DateTimeFormat(language, { ...options, timeZone: validTimeZone(zone) });
    formatter = (iso) => (iso ? format.format(new Date(iso)) : '—');
    instantFormatters.set(key, formatter);
  }
  return formatter;
}

/** The platform time zone of the start-up data (undefined until it arrives: the browser's). */
export function usePlatformTimeZone(): string | undefined {
  return useSession((s) => validTimeZone(s.app?.timezone));
}

/** A formatter of instants in the UI language and the platform time zone. */
export function useInstantFormat(withTime: boolean) {
  const language = useSession((s) => s.language);
  const zone = usePlatformTimeZone();
  return useMemo(
    () =>
      instantFormatter(
        language,
        withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' },
        zone,
      ),
    [language, withTime, zone],
  );
}

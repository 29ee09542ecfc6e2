import { useMemo } from 'react';
import { useSession } from './session.store.ts';

/**
 * One time zone for every date a person sees: the platform's (config TIMEZONE, sent in the
 * start-up data), not the browser's. So a payment is on the same day in the fan's transactions
 * and in the admin's sales, which the server groups by day in that zone too.
 */
export function validTimeZone(zone: string | null | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** Formats instants (ISO strings) in the platform time zone and the given language. */
export function instantFormatter(language: string, options: Intl.DateTimeFormatOptions, zone?: string) {
  const format = new Intl.DateTimeFormat(language, { ...options, timeZone: validTimeZone(zone) });
  return (iso: string | null | undefined): string => (iso ? format.format(new Date(iso)) : '—');
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

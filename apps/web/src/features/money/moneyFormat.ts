import { useMemo } from 'react';
import { instantFormatter, usePlatformTimeZone } from '../../app/dates.ts';
import { useSession } from '../../app/session.store.ts';

const moneyFormatters = new Map<string, ReturnType<typeof buildMoneyFormatter>>();

/**
 * Formats integer cents as US dollars and ISO dates, in the UI language and the platform time zone
 * (built once per language and zone: every card of a feed asks for one).
 */
export function moneyFormatter(language: string, zone?: string) {
  const key = `${language} ${zone ?? ''}`;
  let formatter = moneyFormatters.get(key);
  if (!formatter) {
    formatter = buildMoneyFormatter(language, zone);
    moneyFormatters.set(key, formatter);
  }
  return formatter;
}

function buildMoneyFormatter(language: string, zone?: string) {
  const currency = new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' });
  const date = instantFormatter(language, { dateStyle: 'medium' }, zone);
  const number = new Intl.NumberFormat(language);
  return {
    cents: (cents: number) => currency.format(cents / 100),
    date,
    number: (value: number) => number.format(value),
  };
}

export type MoneyFormatter = ReturnType<typeof moneyFormatter>;

/** The formatter of the current UI language. */
export function useMoneyFormat(): MoneyFormatter {
  const language = useSession((s) => s.language);
  const zone = usePlatformTimeZone();
  return useMemo(() => moneyFormatter(language, zone), [language, zone]);
}

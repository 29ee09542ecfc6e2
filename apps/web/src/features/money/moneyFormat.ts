import { useMemo } from 'react';
import { useSession } from '../../app/session.store.ts';

/** Formats integer cents as US dollars and ISO dates, in the UI language. */
export function moneyFormatter(language: string) {
  const currency = new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' });
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
  const number = new Intl.NumberFormat(language);
  return {
    cents: (cents: number) => currency.format(cents / 100),
    date: (iso: string | null | undefined) => (iso ? date.format(new Date(iso)) : '—'),
    number: (value: number) => number.format(value),
  };
}

export type MoneyFormatter = ReturnType<typeof moneyFormatter>;

/** The formatter of the current UI language. */
export function useMoneyFormat(): MoneyFormatter {
  const language = useSession((s) => s.language);
  return useMemo(() => moneyFormatter(language), [language]);
}

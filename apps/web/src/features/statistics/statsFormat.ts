/** Amounts (integer cents) as US dollars in the UI language; counts and day labels likewise. */
export function statsFormatters(language: string) {
  const money = new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' });
  const compactMoney = new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
    notation: 'compact',
    maximumFractionDigits: 1,
  });
  const count = new Intl.NumberFormat(language);
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  // Days come as YYYY-MM-DD in the platform's zone: read and print them as UTC so they never shift.
  const day = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const shortDay = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat(language, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const asDate = (value: string) => {
    const time = Date.parse(`${value.length === 7 ? `${value}-01` : value}T00:00:00Z`);
    return Number.isNaN(time) ? null : new Date(time);
  };
  return {
    money: (cents: number) => money.format(cents / 100),
    compactMoney: (cents: number) => compactMoney.format(cents / 100),
    count: (value: number) => count.format(value),
    /** A share given in percent (75.5 → "75.5%"). */
    percent: (value: number) => percent.format(value / 100),
    day: (value: string) => {
      const date = asDate(value);
      return date ? day.format(date) : value;
    },
    month: (value: string) => {
      const date = asDate(value);
      return date ? month.format(date) : value;
    },
    shortDay: (value: string) => {
      const date = asDate(value);
      return date ? shortDay.format(date) : value;
    },
  };
}

export type StatsFormatters = ReturnType<typeof statsFormatters>;

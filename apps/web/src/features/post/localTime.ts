/** An ISO time as the value of a datetime-local input, in this browser's time zone. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** This browser's time zone (the creator picks times in it; viewers see times in theirs). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

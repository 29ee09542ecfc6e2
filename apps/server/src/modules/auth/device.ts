import Bowser from 'bowser';

export interface Device {
  /** e.g. "Chrome 131", or null when the User-Agent says nothing usable. */
  browser: string | null;
  /** e.g. "Android 14", "macOS". */
  os: string | null;
  type: 'desktop' | 'mobile' | 'tablet' | 'tv' | 'unknown';
}

/** Names the device of a session from its User-Agent (bowser; nothing leaves the server). */
export function deviceOf(userAgent: string | null | undefined): Device {
  if (!userAgent) return { browser: null, os: null, type: 'unknown' };
  const r = Bowser.parse(userAgent);
  const major = r.browser.version?.split('.')[0];
  const browser = r.browser.name ? `${r.browser.name}${major ? ` ${major}` : ''}` : null;
  const os = r.os.name
    ? `${r.os.name}${r.os.versionName ? ` ${r.os.versionName}` : r.os.version ? ` ${r.os.version}` : ''}`
    : null;
  const type =
    (['desktop', 'mobile', 'tablet', 'tv'] as const).find((t) => t === r.platform.type) ?? 'unknown';
  return { browser, os, type };
}

/** Two sessions are on the same device when browser family, system and kind match (not versions). */
export function sameDevice(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const x = Bowser.parse(a);
  const y = Bowser.parse(b);
  return x.browser.name === y.browser.name && x.os.name === y.os.name && x.platform.type === y.platform.type;
}

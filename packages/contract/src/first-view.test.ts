import { describe, expect, it } from 'vitest';
import { AGE_ACCEPTED, FIRST_VIEW_COOKIES, firstViewCookie } from './first-view.ts';

describe('firstViewCookie', () => {
  it('keeps a value for a year on the whole site, Secure only on HTTPS', () => {
    expect(firstViewCookie(FIRST_VIEW_COOKIES.age, AGE_ACCEPTED, false)).toBe(
      'fv_age=1; Path=/; Max-Age=31536000; SameSite=Lax',
    );
    expect(firstViewCookie(FIRST_VIEW_COOKIES.language, 'es', true)).toBe(
      'fv_lang=es; Path=/; Max-Age=31536000; SameSite=Lax; Secure',
    );
  });

  it('encodes the value and clears the cookie with null', () => {
    expect(firstViewCookie('x', 'a;b c', false)).toMatch(/^x=a%3Bb%20c; /);
    expect(firstViewCookie(FIRST_VIEW_COOKIES.screen, null, true)).toBe(
      'fv_screen=; Path=/; Max-Age=0; SameSite=Lax; Secure',
    );
  });
});

import { NOTIFICATION_KINDS } from '@fanverse/contract';
import { describe, expect, it } from 'vitest';
import { resetCodeMail } from '../mail/templates.ts';
import { notificationText } from '../modules/notifications/notification.templates.ts';
import { renderSandboxPage } from '../payments/sandbox.page.ts';
import { CATALOGUES, flatSection, hasServerText, serverText } from './i18n.ts';

/** Every text of a catalogue by dotted key. */
function texts(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.entries(value as object).reduce<Record<string, string>>(
    (all, [key, child]) => Object.assign(all, texts(child, prefix ? `${prefix}.${key}` : key)),
    {},
  );
}
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('server catalogues (i18next)', () => {
  const en = texts(CATALOGUES.en);
  const es = texts(CATALOGUES.es);

  it('have the same keys in en and es, none empty', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of [...Object.entries(en), ...Object.entries(es)]) expect(text, key).not.toBe('');
  });

  it('use the same placeholders in both languages, and no single-brace leftovers', () => {
    for (const key of Object.keys(en)) {
      expect(placeholders(es[key] ?? ''), key).toEqual(placeholders(en[key] ?? ''));
      expect(`${en[key]}${es[key]}`.replace(/\{\{\w+\}\}/g, ''), key).not.toMatch(/\{\w+\}/);
    }
  });

  it('word every notification kind of the contract', () => {
    for (const kind of NOTIFICATION_KINDS) expect(hasServerText(`notifications.${kind}`), kind).toBe(true);
    expect(notificationText('tip', 'es', { actor: 'ana', amount: 5 })).toBe(
      'ana te envió una propina de 5 créditos.',
    );
    expect(notificationText('post_rejected', 'es', {})).toBe(
      'Tu publicación no fue aprobada: sin motivo indicado',
    );
  });

  it('word the reset mail, the billing page and the start-up words in the asked language', () => {
    const mail = resetCodeMail('es', {
      to: 'a@b.c',
      name: 'Ana',
      app: 'Fanverse',
      code: '123456',
      minutes: 15,
      link: 'x',
    });
    expect(mail.subject).toBe('Fanverse: tu código para restablecer la contraseña');
    expect(mail.text).toContain('Tu código para restablecer la contraseña de Fanverse es: 123456');
    expect(serverText('es', 'billing.subscription', { handle: 'ana', price: '9.99' })).toBe(
      'Suscripción a @ana por $9.99 al mes',
    );
    const page = renderSandboxPage({
      lang: 'es',
      action: '/pay',
      checkout: 'c',
      sig: 's',
      payer: { name: '<b>', email: 'e', country: '' },
      amount: '9.99',
      description: 'Suscripción a @ana',
      status: 'pending',
    });
    expect(page).toContain('Aprobar');
    expect(page).toContain('&#60;b&#62;');
    expect(flatSection('es', 'words')['role.super']).toBe('Superadministrador');
    expect(flatSection('en', 'texts')['landing.title']).toBeTruthy();
  });
});

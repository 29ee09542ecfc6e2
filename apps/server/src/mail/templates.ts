import type { Language } from '@fanverse/contract';
import { formatMessage } from '@fanverse/contract';
import type { Mail } from './mailer.ts';

const RESET = {
  en: {
    subject: '{app}: your password reset code',
    text: 'Hello {name},\n\nYour code to reset your {app} password is: {code}\n\nIt expires in {minutes} minutes and works once. Open {link} to set a new password.\n\nIf you did not ask for it, ignore this email: your password stays the same.',
  },
  es: {
    subject: '{app}: tu código para restablecer la contraseña',
    text: 'Hola {name}:\n\nTu código para restablecer la contraseña de {app} es: {code}\n\nCaduca en {minutes} minutos y solo sirve una vez. Abre {link} para elegir una contraseña nueva.\n\nSi no lo pediste, ignora este correo: tu contraseña no cambia.',
  },
} as const;

export function resetCodeMail(
  lang: Language,
  params: { to: string; name: string; app: string; code: string; minutes: number; link: string },
): Mail {
  const t = RESET[lang];
  return { to: params.to, subject: formatMessage(t.subject, params), text: formatMessage(t.text, params) };
}

import type { Language } from './constants.ts';
import type { Localized } from './i18n.ts';

/**
 * The errors a client names itself, with no error answer to read the message from (the network
 * failed, the answer was not the contract's). Entries of the one catalogue (`ERRORS` in errors.ts
 * takes them from here), apart so that the web app's first load carries these three and not the
 * whole catalogue.
 */
export const CLIENT_ERRORS = {
  NOT_FOUND: { status: 404, en: 'Not found.', es: 'No encontrado.' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    en: 'The service is starting or unavailable. Please try again shortly.',
    es: 'El servicio se está iniciando o no está disponible. Inténtalo de nuevo en breve.',
  },
  INTERNAL: {
    status: 500,
    en: 'Sorry - Server error - An error has been found on the application server.',
    es: 'Lo sentimos - Error del servidor - Se ha encontrado un error en el servidor de la aplicación.',
  },
} as const satisfies Record<string, Localized & { status: number }>;

export type ClientErrorCode = keyof typeof CLIENT_ERRORS;

/** The message of a client-side error in the language (none of them has placeholders). */
export function clientErrorMessage(code: ClientErrorCode, language: Language): string {
  return CLIENT_ERRORS[code][language];
}

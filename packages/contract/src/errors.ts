import { CLIENT_ERRORS } from './client-errors.ts';
import type { Language } from './constants.ts';
import { formatMessage, type Localized } from './i18n.ts';

/**
 * The one catalogue of error codes. Every error the API answers is
 * `{ code, message, fields? }`, `message` in the request's language.
 */
export const ERRORS = {
  VALIDATION_FAILED: {
    status: 400,
    en: 'Some fields are not valid. Please check them.',
    es: 'Algunos campos no son válidos. Revísalos.',
  },
  INVALID_JSON: {
    status: 400,
    en: 'The request body is not valid JSON.',
    es: 'El cuerpo de la solicitud no es un JSON válido.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    en: 'The request is too large.',
    es: 'La solicitud es demasiado grande.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    en: 'This content type is not supported.',
    es: 'Este tipo de contenido no es compatible.',
  },
  INVALID_MULTIPART: {
    status: 400,
    en: 'The form sent is incomplete or malformed.',
    es: 'El formulario enviado está incompleto o mal formado.',
  },
  POST_STATE_CONFLICT: {
    status: 409,
    en: 'This post cannot do that in its current state.',
    es: 'Esta publicación no puede hacer eso en su estado actual.',
  },
  MISSING_DATA: { status: 400, en: 'Missing Data', es: 'Faltan datos' },
  MISSING_POST_ID: { status: 400, en: 'Missing post ID', es: 'Falta el ID de la publicación' },
  UNAUTHENTICATED: {
    status: 401,
    en: 'You need to log in to do this.',
    es: 'Necesitas iniciar sesión para hacer esto.',
  },
  INVALID_TOKEN: {
    status: 401,
    en: 'Your session has expired. Please log in again.',
    es: 'Tu sesión ha caducado. Inicia sesión de nuevo.',
  },
  API_TOKEN_INVALID: {
    status: 401,
    en: 'This API token is unknown, revoked or expired.',
    es: 'Este token de API no existe, fue revocado o ha caducado.',
  },
  API_TOKEN_SCOPE_MISSING: {
    status: 403,
    en: 'This API token lacks the scope {scope} needed for this call.',
    es: 'Este token de API no tiene el permiso {scope} que necesita esta llamada.',
  },
  API_TOKEN_NOT_ALLOWED: {
    status: 403,
    en: 'API tokens cannot call this endpoint; sign in to the app to do this.',
    es: 'Los tokens de API no pueden llamar a este punto de acceso; inicia sesión en la aplicación para hacerlo.',
  },
  API_TOKEN_LIMIT: {
    status: 409,
    en: 'You already have {max} API tokens. Revoke one before creating another.',
    es: 'Ya tienes {max} tokens de API. Revoca uno antes de crear otro.',
  },
  INVALID_CREDENTIALS: {
    status: 401,
    en: 'The username, email or password is not correct.',
    es: 'El usuario, el correo o la contraseña no son correctos.',
  },
  FORBIDDEN: {
    status: 403,
    en: 'You do not have permission to do this.',
    es: 'No tienes permiso para hacer esto.',
  },
  ACCOUNT_SUSPENDED: {
    status: 403,
    en: 'This account is suspended. Contact support.',
    es: 'Esta cuenta está suspendida. Contacta con soporte.',
  },
  NOT_FOUND: CLIENT_ERRORS.NOT_FOUND,
  ROUTE_NOT_FOUND: {
    status: 404,
    en: 'Sorry - Page not found - The link you followed may be broken, or the page may have been removed.',
    es: 'Lo sentimos - Página no encontrada - El enlace que seguiste puede estar roto o la página puede haber sido eliminada.',
  },
  USERNAME_TAKEN: {
    status: 409,
    en: 'This username is already taken.',
    es: 'Este nombre de usuario ya está en uso.',
  },
  EMAIL_TAKEN: {
    status: 409,
    en: 'An account with this email already exists.',
    es: 'Ya existe una cuenta con este correo.',
  },
  RATE_LIMITED: {
    status: 429,
    en: 'Too many attempts. Please try again in {seconds} seconds.',
    es: 'Demasiados intentos. Inténtalo de nuevo en {seconds} segundos.',
  },
  COMMENT_RATE_LIMITED: {
    status: 429,
    en: 'You are commenting too fast. Please wait {seconds} seconds and try again.',
    es: 'Estás comentando demasiado rápido. Espera {seconds} segundos e inténtalo de nuevo.',
  },
  MESSAGE_RATE_LIMITED: {
    status: 429,
    en: 'You are sending messages too fast. Please wait {seconds} seconds and try again.',
    es: 'Estás enviando mensajes demasiado rápido. Espera {seconds} segundos e inténtalo de nuevo.',
  },
  RESET_CODE_INVALID: {
    status: 400,
    en: 'This code is not valid. Request a new one.',
    es: 'Este código no es válido. Solicita uno nuevo.',
  },
  RESET_CODE_EXPIRED: {
    status: 400,
    en: 'This code has expired. Request a new one.',
    es: 'Este código ha caducado. Solicita uno nuevo.',
  },
  CONFIRM_CODE_INVALID: {
    status: 400,
    en: 'This confirmation code is not valid. Check the latest email or ask for a new one.',
    es: 'Este código de confirmación no es válido. Revisa el último correo o pide uno nuevo.',
  },
  CONFIRM_CODE_EXPIRED: {
    status: 400,
    en: 'This confirmation code has expired. Ask for a new one.',
    es: 'Este código de confirmación ha caducado. Pide uno nuevo.',
  },
  TWO_FACTOR_INVALID: {
    status: 400,
    en: 'This code is not valid. Use the current code of your authenticator app, or one of your recovery codes.',
    es: 'Este código no es válido. Usa el código actual de tu app de autenticación o uno de tus códigos de recuperación.',
  },
  TWO_FACTOR_EXPIRED: {
    status: 401,
    en: 'This sign-in step has expired or had too many wrong codes. Enter your password again.',
    es: 'Este paso de inicio de sesión caducó o tuvo demasiados códigos incorrectos. Vuelve a escribir tu contraseña.',
  },
  TWO_FACTOR_ALREADY_ON: {
    status: 409,
    en: 'Two-step sign-in is already on for this account.',
    es: 'El inicio de sesión en dos pasos ya está activado en esta cuenta.',
  },
  TWO_FACTOR_NOT_SET_UP: {
    status: 400,
    en: 'Start the set-up first: scan the QR code, then type a code.',
    es: 'Primero empieza la configuración: escanea el código QR y luego escribe un código.',
  },
  TWO_FACTOR_REQUIRED: {
    status: 403,
    en: 'Staff accounts need two-step sign-in. Turn it on in Settings › Security, or sign in with a passkey, then try again.',
    es: 'Las cuentas del equipo necesitan el inicio de sesión en dos pasos. Actívalo en Ajustes › Seguridad, o inicia sesión con una llave de acceso, y vuelve a intentarlo.',
  },
  PASSKEY_INVALID: {
    status: 400,
    en: 'This passkey could not be checked. Try again, or sign in with your password.',
    es: 'No se pudo comprobar esta llave de acceso. Vuelve a intentarlo o inicia sesión con tu contraseña.',
  },
  PASSKEY_EXPIRED: {
    status: 400,
    en: 'This passkey request has expired or was already used. Start again.',
    es: 'Esta solicitud de llave de acceso caducó o ya se usó. Vuelve a empezar.',
  },
  OIDC_STATE_INVALID: {
    status: 400,
    en: 'This sign-in expired or was already used. Start again.',
    es: 'Este inicio de sesión caducó o ya se usó. Vuelve a empezar.',
  },
  OIDC_FAILED: {
    status: 400,
    en: 'The sign-in with {provider} did not finish. Try again.',
    es: 'El inicio de sesión con {provider} no terminó. Vuelve a intentarlo.',
  },
  OIDC_EMAIL_TAKEN: {
    status: 409,
    en: 'This email already has an account: sign in with your password, then link {provider} in Security.',
    es: 'Este correo ya tiene una cuenta: inicia sesión con tu contraseña y vincula {provider} en Seguridad.',
  },
  OIDC_ALREADY_LINKED: {
    status: 409,
    en: 'This {provider} account is linked to another account.',
    es: 'Esta cuenta de {provider} está vinculada a otra cuenta.',
  },
  OIDC_LAST_SIGN_IN: {
    status: 400,
    en: 'Your only way to sign in: set a password or add a passkey first.',
    es: 'Es tu única forma de iniciar sesión: crea una contraseña o añade una llave de acceso primero.',
  },
  EMAIL_NOT_CONFIRMED: {
    status: 403,
    en: 'Confirm your email first: your picture, cover and display name can be changed once it is confirmed.',
    es: 'Primero confirma tu correo: podrás cambiar tu foto, tu portada y tu nombre visible cuando esté confirmado.',
  },
  CONFIRMATION_MISMATCH: {
    status: 400,
    en: 'Type the word {word} to confirm.',
    es: 'Escribe la palabra {word} para confirmar.',
  },
  MESSAGE_EMPTY: { status: 400, en: 'Message empty', es: 'Mensaje vacío' },
  MESSAGE_TOO_LONG: {
    status: 400,
    en: 'The message is too long. Max {max} characters.',
    es: 'El mensaje es demasiado largo. Máximo {max} caracteres.',
  },
  FILE_TOO_LARGE: {
    status: 413,
    en: 'The file {name} is too large, Max size {n} MB',
    es: 'El archivo {name} es demasiado grande, tamaño máximo {n} MB',
  },
  FILE_NOT_SUPPORTED: {
    status: 415,
    en: 'The file {name} is not supported',
    es: 'El archivo {name} no es compatible',
  },
  CAPTIONS_TOO_LARGE: {
    status: 413,
    en: 'The captions file {name} is too large, Max size {n} KB',
    es: 'El archivo de subtítulos {name} es demasiado grande, tamaño máximo {n} KB',
  },
  LEAK_FILE_REQUIRED: {
    status: 400,
    en: 'Choose one image (JPEG, PNG or WebP) or one video (MP4, WebM or MOV, up to 300 MB) of the leaked copy.',
    es: 'Elige una imagen (JPEG, PNG o WebP) o un vídeo (MP4, WebM o MOV, hasta 300 MB) de la copia filtrada.',
  },
  LEAK_COMPLAINT_NEEDS_FAN: {
    status: 409,
    en: 'A DMCA complaint needs a finished trace that named a fan.',
    es: 'Una reclamación DMCA necesita un rastreo terminado que haya identificado a un fan.',
  },
  VIDEO_STREAM_ONLY: {
    status: 403,
    en: 'This video is protected: it plays only in the player, the file itself is not sent.',
    es: 'Este vídeo está protegido: solo se reproduce en el reproductor, el archivo no se envía.',
  },
  MEDIA_IN_USE: {
    status: 409,
    en: 'This file is used in a post, a message, the welcome message or the gallery. Remove it from there first.',
    es: 'Este archivo se usa en una publicación, un mensaje, el mensaje de bienvenida o la galería. Quítalo de ahí primero.',
  },
  VAULT_FOLDER_TAKEN: {
    status: 409,
    en: 'You already have a folder with this name. Choose another name.',
    es: 'Ya tienes una carpeta con este nombre. Elige otro nombre.',
  },
  INVALID_FILE_TYPE: { status: 415, en: 'Invalid file type', es: 'Tipo de archivo no válido' },
  LIVE_ALREADY_ON: {
    status: 409,
    en: 'You are already live. End that live first.',
    es: 'Ya estás en directo. Termina ese directo primero.',
  },
  LIVE_ENDED: {
    status: 409,
    en: 'This live has ended.',
    es: 'Este directo ha terminado.',
  },
  LIVE_NOT_ALLOWED: {
    status: 403,
    en: 'You cannot watch this live. Subscribe or buy a ticket to watch it.',
    es: 'No puedes ver este directo. Suscríbete o compra una entrada para verlo.',
  },
  LIVE_MUTED: {
    status: 403,
    en: 'The creator has muted you in this live chat.',
    es: 'El creador te ha silenciado en el chat de este directo.',
  },
  LIVE_NO_RECORDING: {
    status: 409,
    en: 'This live has no recording to publish.',
    es: 'Este directo no tiene grabación para publicar.',
  },
  INSUFFICIENT_CREDITS: {
    status: 402,
    en: 'You do not have enough credits. Buy a credit bag to continue.',
    es: 'No tienes suficientes créditos. Compra una bolsa de créditos para continuar.',
  },
  NOT_FOR_SALE: {
    status: 409,
    en: 'This content is not for sale.',
    es: 'Este contenido no está a la venta.',
  },
  SUBSCRIPTION_PRICE_NOT_SET: {
    status: 409,
    en: 'This creator has not set a subscription price yet.',
    es: 'Este creador aún no ha fijado un precio de suscripción.',
  },
  ALREADY_SUBSCRIBED: {
    status: 409,
    en: 'You are already subscribed to this creator.',
    es: 'Ya estás suscrito a este creador.',
  },
  OFFER_EXPIRED: {
    status: 410,
    en: 'This offer has expired. You can still subscribe at the regular price.',
    es: 'Esta oferta ha caducado. Aún puedes suscribirte al precio normal.',
  },
  OFFER_USED_UP: {
    status: 409,
    en: 'This offer has been used the maximum number of times. You can still subscribe at the regular price.',
    es: 'Esta oferta ya se usó el número máximo de veces. Aún puedes suscribirte al precio normal.',
  },
  CANCEL_LINK_INVALID: {
    status: 400,
    en: 'This cancel link is not valid or has expired. Sign in and cancel from your subscriptions.',
    es: 'Este enlace de cancelación no es válido o ha caducado. Inicia sesión y cancela desde tus suscripciones.',
  },
  CANNOT_PAY_YOURSELF: {
    status: 409,
    en: 'You cannot pay yourself.',
    es: 'No puedes pagarte a ti mismo.',
  },
  COMMISSION_OUT_OF_RANGE: {
    status: 400,
    en: 'The commission must be between {min}% and {max}%.',
    es: 'La comisión debe estar entre {min}% y {max}%.',
  },
  PAYMENT_REJECTED: {
    status: 400,
    en: 'The payment notification was refused.',
    es: 'La notificación de pago fue rechazada.',
  },
  PAYOUT_ALREADY_DECIDED: {
    status: 409,
    en: 'This payout was already marked.',
    es: 'Este pago ya fue marcado.',
  },
  FEATURE_DISABLED: {
    status: 404,
    en: 'This feature is not available here.',
    es: 'Esta función no está disponible aquí.',
  },
  SIGNUPS_PAUSED: {
    status: 403,
    en: 'New sign-ups are paused for now. Please come back later.',
    es: 'Los registros nuevos están en pausa por ahora. Vuelve más tarde.',
  },
  APPLICATIONS_PAUSED: {
    status: 403,
    en: 'Creator applications are paused for now. Please come back later.',
    es: 'Las solicitudes de creador están en pausa por ahora. Vuelve más tarde.',
  },
  TIPS_PAUSED: {
    status: 403,
    en: 'Tips are paused for now.',
    es: 'Las propinas están en pausa por ahora.',
  },
  GIFTS_PAUSED: {
    status: 403,
    en: 'Flowers and gifts are paused for now.',
    es: 'Las flores y los regalos están en pausa por ahora.',
  },
  PAID_MESSAGES_PAUSED: {
    status: 403,
    en: 'Paid messages are paused for now. Send it without a price.',
    es: 'Los mensajes de pago están en pausa por ahora. Envíalo sin precio.',
  },
  SERVICE_UNAVAILABLE: CLIENT_ERRORS.SERVICE_UNAVAILABLE,
  DATABASE_UNAVAILABLE: {
    status: 503,
    en: 'The service is briefly unavailable. Please try again in a few seconds.',
    es: 'El servicio no está disponible por un momento. Inténtalo de nuevo en unos segundos.',
  },
  STORAGE_UNAVAILABLE: {
    status: 503,
    en: 'Media storage is briefly unavailable. Please try again in a moment.',
    es: 'El almacenamiento de archivos no está disponible por un momento. Inténtalo de nuevo en un rato.',
  },
  INTERNAL: CLIENT_ERRORS.INTERNAL,
} as const satisfies Record<string, Localized & { status: number }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

export function errorMessage(
  code: ErrorCode,
  language: Language,
  params?: Record<string, string | number>,
): string {
  return formatMessage(ERRORS[code][language], params);
}

import type { Language } from '@fanverse/contract';

/**
 * Server-side locale data sent at start-up (spec §3 "Locale data"): short words (statuses, roles,
 * reasons) and longer texts the server owns. Interface strings live in the web app's catalogues.
 */
export const WORDS: Record<Language, Record<string, string>> = {
  en: {
    'role.super': 'Super administrator',
    'role.admin': 'Administrator',
    'role.coord': 'Coordinator',
    'role.user': 'User',
    'role.creator': 'Creator',
    'role.fan': 'Fan',
    'role.developer': 'Developer',
    'review.new': 'New',
    'review.pending': 'Pending',
    'review.approved': 'Approved',
    'review.rejected': 'Disapproved',
    'subscription.active': 'Active',
    'subscription.expired': 'Expired',
    'subscription.cancelled': 'Cancelled',
    'report.fake_info': 'Fake information',
    'report.violent_content': 'Violent content',
    'report.fraud': 'Fraud',
    'report.spam': 'Spam',
    'report.hate_speech': 'Hate speech',
    'report.related_a_minor': 'Involves a minor',
    'report.other': 'Other',
    'document.national_id': 'National ID card',
    'document.passport': 'Passport',
    'document.driving_licence': 'Driving licence',
  },
  es: {
    'role.super': 'Superadministrador',
    'role.admin': 'Administrador',
    'role.coord': 'Coordinador',
    'role.user': 'Usuario',
    'role.creator': 'Creador',
    'role.fan': 'Fan',
    'role.developer': 'Desarrollador',
    'review.new': 'Nuevo',
    'review.pending': 'Pendiente',
    'review.approved': 'Aprobado',
    'review.rejected': 'Desaprobado',
    'subscription.active': 'Activa',
    'subscription.expired': 'Vencida',
    'subscription.cancelled': 'Cancelada',
    'report.fake_info': 'Información falsa',
    'report.violent_content': 'Contenido violento',
    'report.fraud': 'Fraude',
    'report.spam': 'Spam',
    'report.hate_speech': 'Discurso de odio',
    'report.related_a_minor': 'Involucra a un menor',
    'report.other': 'Otro',
    'document.national_id': 'Documento nacional de identidad',
    'document.passport': 'Pasaporte',
    'document.driving_licence': 'Licencia de conducción',
  },
};

export const TEXTS: Record<Language, Record<string, string>> = {
  en: {
    'landing.title': 'Your favourite creators, closer than ever',
    'landing.subtitle':
      'Subscribe monthly, unlock exclusive posts with credits and talk to creators directly. Creators keep up to 80% of what fans pay.',
    'age.title': 'This site is for adults only',
    'age.body':
      'It contains material that is only suitable for people aged 18 or over. By entering you confirm that you are at least 18 years old and that adult content is legal where you are.',
    'review.notice': 'New content is reviewed by our team within 24 to 72 hours before it is published.',
    'payout.period': 'Payouts are sent weekly.',
  },
  es: {
    'landing.title': 'Tus creadores favoritos, más cerca que nunca',
    'landing.subtitle':
      'Suscríbete cada mes, desbloquea publicaciones exclusivas con créditos y habla directamente con los creadores. Los creadores conservan hasta el 80 % de lo que pagan los fans.',
    'age.title': 'Este sitio es solo para adultos',
    'age.body':
      'Contiene material adecuado solo para personas de 18 años o más. Al entrar confirmas que tienes al menos 18 años y que el contenido para adultos es legal donde te encuentras.',
    'review.notice':
      'Nuestro equipo revisa el contenido nuevo en un plazo de 24 a 72 horas antes de publicarlo.',
    'payout.period': 'Los pagos se envían cada semana.',
  },
};

import type { WikiSaveRequest } from '@fanverse/contract';
import type { AuthInfo } from '../http/guards.ts';
import type { Services } from '../services.ts';

/** The demo help articles, in English and Spanish (admins edit or add more from `?feed=wiki`). */
export const DEMO_WIKI_ARTICLES: WikiSaveRequest[] = [
  {
    slug: 'subscribing-to-a-creator',
    language: 'en',
    title: 'Subscribing to a creator',
    body: `A subscription opens every post a creator shares with subscribers, for one month at a time.

1. Open the creator's page (search their name in the header: typos are fine).
2. Press **Subscribe** and pay on the billing page.
3. Your subscriptions are listed in **My subscriptions**, where you can cancel at any time.

A subscription is separate from credits: *Plus* content and pay-per-view posts need credits.`,
  },
  {
    slug: 'subscribing-to-a-creator',
    language: 'es',
    title: 'Suscribirse a un creador',
    body: `Una suscripción abre todas las publicaciones que un creador comparte con sus suscriptores, mes a mes.

1. Abre la página del creador (busca su nombre en la cabecera: no importan las erratas).
2. Pulsa **Suscribirse** y paga en la página de pago.
3. Tus suscripciones aparecen en **Mis suscripciones**, donde puedes cancelarlas cuando quieras.

La suscripción es independiente de los créditos: el contenido *Plus* y las publicaciones de pago por ver necesitan créditos.`,
  },
  {
    slug: 'buying-credits',
    language: 'en',
    title: 'Buying and using credits',
    body: `Credits unlock pay-per-view posts and pay for tips, flowers and gifts. They never expire.

- Buy a bag of 50, 150 or 250 credits in **My credits**.
- Every purchase and use is listed in **My credits history**.
- A refund or a dispute returns the credits of that purchase.`,
  },
  {
    slug: 'buying-credits',
    language: 'es',
    title: 'Comprar y usar créditos',
    body: `Los créditos desbloquean publicaciones de pago por ver y pagan propinas, flores y regalos. Nunca caducan.

- Compra una bolsa de 50, 150 o 250 créditos en **Mis créditos**.
- Cada compra y cada uso aparecen en **Historial de créditos**.
- Un reembolso o una disputa devuelve los créditos de esa compra.`,
  },
  {
    slug: 'becoming-a-creator',
    language: 'en',
    title: 'Becoming a creator',
    body: `Apply from **Become a creator** in your account menu. The application has four steps:

1. Complete your profile.
2. Accept the creator terms.
3. Upload three identity photos: the front and back of your document, and you holding it.
4. Wait for the review (24 to 72 hours). The answer arrives in your messages.

Creators keep up to 80% of what fans pay.`,
  },
  {
    slug: 'becoming-a-creator',
    language: 'es',
    title: 'Hacerse creador',
    body: `Solicítalo desde **Hazte creador** en el menú de tu cuenta. La solicitud tiene cuatro pasos:

1. Completa tu perfil.
2. Acepta los términos para creadores.
3. Sube tres fotos de identidad: el frente y el reverso de tu documento, y tú sosteniéndolo.
4. Espera la revisión (de 24 a 72 horas). La respuesta llega a tus mensajes.

Los creadores se quedan hasta con el 80 % de lo que pagan los fans.`,
  },
];

/** Writes the demo help articles as the given administrator (a rerun rewrites them in place). */
export async function seedWikiArticles(services: Services, admin: AuthInfo): Promise<void> {
  for (const article of DEMO_WIKI_ARTICLES) await services.wiki.save(admin, article);
}

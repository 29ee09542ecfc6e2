import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import { requireAdministrator } from '../../http/guards.ts';
import { requestLanguage } from '../../http/language.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { renderSandboxPage } from '../../payments/sandbox.page.ts';
import { SANDBOX_PAY_PATH } from '../../payments/sandbox.provider.ts';
import type { PostbackSender } from './billing.service.ts';

export function billingRoutes({ app, route, services }: RouteDeps): void {
  const billing = services.billing;
  route('credits.bags', () => billing.bags());
  route('admin.saveCreditBag', ({ input }) => billing.saveBag(input), {
    guard: requireAdministrator,
  });
  route('checkout.credits', ({ auth, input, lang }) => billing.checkoutCredits(auth, input.bag, lang));
  route('checkout.subscription', ({ auth, input, lang }) =>
    billing.checkoutSubscription(auth, input.creator, lang, { bundle: input.bundle, offer: input.offer }),
  );
  const send = postbackSender(app);
  route('payments.sandboxSimulate', ({ auth, input }) => billing.sandboxSimulate(auth, input, send));

  // Provider-facing routes: form or JSON bodies, answers in the provider's format, not the contract's.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    scope.route<{ Params: { provider: string } }>({
      method: ['GET', 'POST'],
      url: '/api/v1/payments/:provider/postback',
      handler: async (req, reply) => {
        const answer = await billing.handlePostback(req.params.provider, {
          headers: req.headers,
          fields: { ...stringFields(req.query), ...stringFields(req.body) },
        });
        return reply.status(answer.status).type('text/plain').send(answer.body);
      },
    });
    scope.get(SANDBOX_PAY_PATH, async (req, reply) => {
      const q = stringFields(req.query);
      const lang = q.lang === 'es' || q.lang === 'en' ? q.lang : requestLanguage(req);
      const page = await billing.sandboxCheckout(q.checkout ?? '', q.sig ?? '', lang);
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          renderSandboxPage({
            lang,
            action: SANDBOX_PAY_PATH,
            checkout: page.checkout.id,
            sig: q.sig ?? '',
            payer: page.payer,
            amount: page.amount,
            description: page.description,
            status: page.checkout.status,
          }),
        );
    });
    scope.post(SANDBOX_PAY_PATH, async (req, reply) => {
      const f = stringFields(req.body);
      if (f.decision !== 'approve' && f.decision !== 'decline') throw new AppError('MISSING_DATA');
      const to = await billing.sandboxDecide(f.checkout ?? '', f.sig ?? '', f.decision === 'approve', send);
      return reply.redirect(to, 303);
    });
  });
}

function stringFields(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!v || typeof v !== 'object') return out;
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

/**
 * Sends a sandbox postback as its own HTTP request to this server (loopback), like a processor;
 * when the app is not listening (in-process tests) it goes through Fastify's inject.
 */
function postbackSender(app: FastifyInstance): PostbackSender {
  return async (provider, body) => {
    const url = `/api/v1/payments/${provider}/postback`;
    const addr = app.server.listening ? app.server.address() : null;
    if (addr && typeof addr === 'object') {
      const host = addr.address === '0.0.0.0' || addr.address === '::' ? '127.0.0.1' : addr.address;
      const res = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${addr.port}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
        signal: AbortSignal.timeout(15_000),
      });
      await res.text();
      return res.status;
    }
    const res = await app.inject({ method: 'POST', url, payload: body });
    return res.statusCode;
  };
}

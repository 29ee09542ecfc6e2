import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeCreator } from './money.testkit.ts';

let t: TestApp;
let base = '';
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});
afterAll(async () => {
  await t?.stop();
});

async function api(path: string, token: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { a1sledom: token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Opens the billing page like a browser and presses a button; answers the redirect target. */
async function pay(redirectUrl: string, decision: 'approve' | 'decline') {
  const page = await fetch(`${base}${redirectUrl}`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  const html = await page.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const res = await fetch(`${base}${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ checkout: field('checkout'), sig: field('sig'), decision }).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), html };
}

describe('sandbox billing over real HTTP', () => {
  it('checkout → billing page → Approve → postback to itself → wallet credited; replay changes nothing', async () => {
    const fan = await createUser(t);
    const checkout = await api('/checkout/credits', fan.token, { bag: 'bag-50' });
    expect(checkout.status).toBe(200);
    const result = await pay(String(checkout.body.redirectUrl), 'approve');
    expect(result.html).toContain('Sandbox billing');
    expect(result.html).toContain('$5.00');
    expect(result).toMatchObject({ status: 303, location: '/?feed=my-credits&payment=approved' });
    expect((await api('/wallet', fan.token)).body.credits).toBe(50);

    // The processor retries the same postback: stored once, applied once.
    const [event] = await t.database.session((exec) =>
      exec(`SELECT raw FROM payment_events WHERE raw->>'userid' = '${fan.id}'`),
    );
    const raw = event?.raw as Record<string, string>;
    const replay = await fetch(`${base}/api/v1/payments/sandbox/postback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(raw).toString(),
    });
    expect(replay.status).toBe(200);
    expect((await api('/wallet', fan.token)).body.credits).toBe(50);
    const history = await api('/user/transactions', fan.token);
    expect(history.body.items).toHaveLength(1);
  });

  it('subscription: Approve and Decline both land on the creator profile (where it started), flagged', async () => {
    const creator = await makeCreator(t, '7.50');
    const fan = await createUser(t);
    const declined = await api('/checkout/subscription', fan.token, { creator: creator.username });
    expect(await pay(String(declined.body.redirectUrl), 'decline')).toMatchObject({
      location: `/${creator.username}?payment=declined`,
    });
    expect((await api('/user/subscriptions', fan.token)).body.items).toEqual([]);
    const approved = await api('/checkout/subscription', fan.token, { creator: creator.username });
    expect(await pay(String(approved.body.redirectUrl), 'approve')).toMatchObject({
      location: `/${creator.username}?payment=approved`,
    });
    const subs = (await api('/user/subscriptions', fan.token)).body.items as { status: string }[];
    expect(subs.map((s) => s.status)).toEqual(['active']);
  });
});

import type { Language } from '@fanverse/contract';
import { serverText } from '../i18n/i18n.ts';

function esc(v: string): string {
  return v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The sandbox processor's hosted page: a plain form, no scripts, no external assets (CSP-friendly). */
export function renderSandboxPage(p: {
  lang: Language;
  action: string;
  checkout: string;
  sig: string;
  payer: { name: string; email: string; country: string };
  amount: string;
  description: string;
  status: string;
}): string {
  const text = (key: string) => esc(serverText(p.lang, `sandbox.${key}`));
  const t = {
    title: text('title'),
    note: text('note'),
    payer: text('payer'),
    amount: text('amount'),
    description: text('description'),
    approve: text('approve'),
    decline: text('decline'),
  };
  return `<!doctype html>
<html lang="${p.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${t.title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{color:#bd0909;font-size:1.4rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}dt{font-weight:600}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{flex:1;padding:.8rem;font-size:1rem;border-radius:6px;border:1px solid #bd0909;cursor:pointer}
button[value=approve]{background:#bd0909;color:#fff}button[value=decline]{background:#fff;color:#bd0909}
.note{color:#555;font-size:.9rem}</style></head>
<body><main><h1>${t.title}</h1><p class="note">${t.note}</p>
<dl><dt>${t.payer}</dt><dd>${esc(p.payer.name)}<br>${esc(p.payer.email)}${p.payer.country ? ` (${esc(p.payer.country)})` : ''}</dd>
<dt>${t.amount}</dt><dd data-testid="amount">$${esc(p.amount)} USD</dd>
<dt>${t.description}</dt><dd data-testid="description">${esc(p.description)}</dd></dl>
<form method="post" action="${esc(p.action)}">
<input type="hidden" name="checkout" value="${esc(p.checkout)}"><input type="hidden" name="sig" value="${esc(p.sig)}">
<input type="hidden" name="lang" value="${p.lang}">
<div class="actions"><button type="submit" name="decision" value="approve">${t.approve}</button>
<button type="submit" name="decision" value="decline">${t.decline}</button></div></form></main></body></html>`;
}

import type { CreditBag } from '@fanverse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader, Panel } from '../../ui/Feedback.tsx';
import { checkoutOutcome, forgetPendingCheckout, goToCheckout, pendingCheckoutOnReturn } from './checkout.ts';
import { useMoneyFormat } from './moneyFormat.ts';
import { useWallet } from './useWallet.ts';
import './money.css';

/** The credits card: balance and its menu (credits history, transactions). */
export function CreditsCard() {
  const { t } = useTranslation('money');
  const wallet = useWallet();
  const format = useMoneyFormat();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, [open]);

  return (
    <div className="credits-card" ref={ref}>
      <div>
        <p className="credits-card__label">{t('credits.balance')}</p>
        <p className="credits-card__balance" data-testid="credits-balance" aria-live="polite">
          {wallet.data
            ? t('credits.count', {
                count: wallet.data.credits,
                formatted: format.number(wallet.data.credits),
              })
            : '…'}
        </p>
      </div>
      <button
        type="button"
        className="credits-card__menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('credits.menu')}
        onClick={() => setOpen((value) => !value)}
        data-testid="credits-menu-button"
      >
        ⋯
      </button>
      {open && (
        <div className="menu-list credits-card__menu" role="menu" id={menuId} data-testid="credits-menu">
          <Link role="menuitem" className="menu-list__item" to="/?feed=my-credits-history">
            {t('credits.history')}
          </Link>
          <Link role="menuitem" className="menu-list__item" to="/?feed=my-transactions">
            {t('credits.transactions')}
          </Link>
          <Link role="menuitem" className="menu-list__item" to="/?feed=my-subscriptions">
            {t('credits.subscriptions')}
          </Link>
        </div>
      )}
      {wallet.isError && <Alert>{errorText(wallet.error)}</Alert>}
    </div>
  );
}

function BagCard({ bag, onBuy, busy }: { bag: CreditBag; onBuy: () => void; busy: boolean }) {
  const { t } = useTranslation('money');
  const format = useMoneyFormat();
  const titleId = useId();
  return (
    <li className="credit-bag" data-testid={`credit-bag-${bag.credits}`} aria-labelledby={titleId}>
      <h3 id={titleId} className="credit-bag__credits">
        {t('credits.count', { count: bag.credits, formatted: format.number(bag.credits) })}
      </h3>
      <p className="credit-bag__price">{format.cents(bag.priceCents)}</p>
      <button
        type="button"
        className="button button--primary button--block"
        onClick={onBuy}
        disabled={busy}
        data-testid={`credit-bag-buy-${bag.credits}`}
      >
        {t('credits.buy')}
      </button>
    </li>
  );
}

/** The message after coming back from the billing page, if this tab left for one. */
function ReturnMessage() {
  const { t } = useTranslation('money');
  const [params] = useSearchParams();
  const wallet = useWallet();
  const [pending] = useState(pendingCheckoutOnReturn);
  const outcome = wallet.data ? checkoutOutcome(params.get('payment'), pending, wallet.data.credits) : null;
  // Once shown, leaving the view forgets it, so coming back later shows just the balance.
  useEffect(() => (outcome ? forgetPendingCheckout : undefined), [outcome]);
  if (outcome === 'approved') {
    return (
      <Alert tone="success" testId="checkout-approved">
        {t('credits.approved')}
      </Alert>
    );
  }
  if (outcome === 'declined') {
    return (
      <Alert tone="info" testId="checkout-declined">
        {t('credits.declined')}
      </Alert>
    );
  }
  return null;
}

/** /?feed=my-credits: balance card, the credit bags, Buy → hosted billing page (spec §7). */
export function CreditsView() {
  const { t } = useTranslation('money');
  const wallet = useWallet();
  const bags = useQuery({ queryKey: ['credits.bags'], queryFn: () => api('credits.bags') });
  const buy = useMutation({
    mutationFn: (bag: CreditBag) => api('checkout.credits', { bag: bag.id }),
    onSuccess: ({ redirectUrl }, bag) =>
      goToCheckout(redirectUrl, {
        kind: 'credits',
        what: String(bag.credits),
        balanceBefore: wallet.data?.credits ?? null,
      }),
  });
  return (
    <Panel title={t('credits.title')} testId="view-feed-my-credits">
      <ReturnMessage />
      <CreditsCard />
      <h2 className="money-subtitle">{t('credits.bags')}</h2>
      <p className="money-note">{t('credits.never')}</p>
      {bags.isPending && <Loader />}
      {bags.isError && <Alert>{errorText(bags.error)}</Alert>}
      {bags.data && (
        <ul className="credit-bags">
          {bags.data.bags.map((bag) => (
            <BagCard
              key={bag.id}
              bag={bag}
              busy={buy.isPending || buy.isSuccess}
              onBuy={() => buy.mutate(bag)}
            />
          ))}
        </ul>
      )}
      {buy.isPending && <Loader label={t('credits.redirecting')} />}
      {buy.isError && <Alert>{errorText(buy.error)}</Alert>}
      <p className="money-note">{t('credits.billingNote')}</p>
    </Panel>
  );
}

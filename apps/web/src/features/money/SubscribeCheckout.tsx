import type { CreatorProfile } from '@fanverse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { priceDisplay } from '../feed/format.ts';
import { goToCheckout } from './checkout.ts';
import { useMoneyFormat } from './moneyFormat.ts';
import './money.css';

/**
 * The purchase part of the buy-subscription overlay: monthly price in dollars (original struck and
 * the percent while a discount is active), then Continue → the hosted billing page (spec §7).
 */
export function SubscribeCheckout({ profile }: { profile: CreatorProfile }) {
  const { t } = useTranslation('money');
  const format = useMoneyFormat();
  // Bundles (issue 19): 3, 6 or 12 months at once at the creator's discount; 0 = monthly.
  const [months, setMonths] = useState<0 | 3 | 6 | 12>(0);
  const bundles = useQuery({
    queryKey: ['offers.bundles', profile.user],
    queryFn: () => api('offers.bundles', undefined, { params: { creator: profile.user } }),
    enabled: profile.subscriptionPrice !== null,
  });
  const checkout = useMutation({
    mutationFn: () =>
      api('checkout.subscription', { creator: profile.user, ...(months ? { bundle: months } : {}) }),
    onSuccess: ({ redirectUrl }) =>
      goToCheckout(redirectUrl, { kind: 'subscription', what: profile.user, balanceBefore: null }),
  });
  if (profile.subscriptionPrice === null) return null;
  const shown = priceDisplay(
    profile.subscriptionPrice,
    profile.subscriptionFinalPrice ?? profile.subscriptionPrice,
    profile,
  );
  const price = format.cents(shown.price);
  return (
    <div className="subscribe-checkout">
      <p className="subscribe-checkout__price" data-testid="subscribe-price">
        <strong>{t('subscribe.monthly', { price })}</strong>
        {shown.original !== null && (
          <>
            {' '}
            <s>{format.cents(shown.original)}</s>{' '}
            <span className="discount-badge">{t('unlock.off', { percent: shown.percent })}</span>
          </>
        )}
      </p>
      {bundles.data && bundles.data.bundles.length > 0 && (
        <fieldset className="bundle-choice" data-testid="bundle-choice">
          <legend>{t('subscribe.choose')}</legend>
          <label>
            <input type="radio" name="bundle" checked={months === 0} onChange={() => setMonths(0)} />
            {t('subscribe.monthly', { price })}
          </label>
          {bundles.data.bundles.map((b) => (
            <label key={b.months} data-testid={`bundle-${b.months}`}>
              <input
                type="radio"
                name="bundle"
                checked={months === b.months}
                onChange={() => setMonths(b.months)}
              />
              {t('subscribe.bundle', { months: b.months, price: format.cents(b.priceCents) })}{' '}
              <s>{format.cents(b.fullPriceCents)}</s>{' '}
              <span className="discount-badge">{t('unlock.off', { percent: b.discountPercent })}</span>
            </label>
          ))}
        </fieldset>
      )}
      <p className="subscribe-checkout__summary">
        {months
          ? t('subscribe.bundleSummary', {
              handle: profile.user,
              months,
              price: format.cents(bundles.data?.bundles.find((b) => b.months === months)?.priceCents ?? 0),
            })
          : t('subscribe.summary', { handle: profile.user, price })}
      </p>
      <button
        type="button"
        className="button button--primary button--block"
        disabled={checkout.isPending || checkout.isSuccess}
        onClick={() => checkout.mutate()}
        data-testid="subscribe-continue"
      >
        {t('subscribe.continue')}
      </button>
      {(checkout.isPending || checkout.isSuccess) && <Loader label={t('credits.redirecting')} />}
      {checkout.isError && <Alert>{errorText(checkout.error)}</Alert>}
      <p className="money-note">{t('subscribe.note')}</p>
    </div>
  );
}

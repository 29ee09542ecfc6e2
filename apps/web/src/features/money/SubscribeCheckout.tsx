import type { CreatorProfile } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
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
  const checkout = useMutation({
    mutationFn: () => api('checkout.subscription', { creator: profile.user }),
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
      <p className="subscribe-checkout__summary">{t('subscribe.summary', { handle: profile.user, price })}</p>
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

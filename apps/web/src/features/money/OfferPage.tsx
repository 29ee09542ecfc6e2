import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Avatar } from '../feed/Author.tsx';
import { goToCheckout } from './checkout.ts';
import { useMoneyFormat } from './moneyFormat.ts';
import './money.css';

/**
 * /offer/:code — a creator's free-trial or discount link (issue 19): what it gives, until when, how
 * many are left, then the hosted billing page. An expired or used-up link says so in the fan's language.
 */
export default function OfferPage() {
  const { t } = useTranslation('money');
  const format = useMoneyFormat();
  const { code = '' } = useParams();
  const signedIn = useSession((s) => s.token !== null);
  const offer = useQuery({
    queryKey: ['offers.view', code],
    queryFn: () => api('offers.view', undefined, { params: { code } }),
    retry: false,
  });
  const checkout = useMutation({
    mutationFn: (creator: string) => api('checkout.subscription', { creator, offer: code }),
    onSuccess: ({ redirectUrl }, creator) =>
      goToCheckout(redirectUrl, { kind: 'subscription', what: creator, balanceBefore: null }),
  });
  const o = offer.data;
  return (
    <div className="auth-page">
      <div className="card" data-testid="offer-page">
        <h1>{t('offer.title')}</h1>
        {offer.isPending && <Loader />}
        {offer.isError && <Alert testId="offer-error">{errorText(offer.error)}</Alert>}
        {o && (
          <>
            <div className="subscription-row__who">
              <Avatar user={o.creator} />
              <Link to={`/${o.creator.user}`} className="subscription-row__name">
                {o.creator.name || o.creator.user} <span className="muted">@{o.creator.user}</span>
              </Link>
            </div>
            <p className="subscription-next" data-testid="offer-terms">
              {o.kind === 'trial'
                ? t('offer.trial', { days: o.trialDays, price: format.cents(o.recurringCents) })
                : t('offer.discount', {
                    percent: o.discountPercent,
                    price: format.cents(o.firstCents),
                    regular: format.cents(o.recurringCents),
                  })}
            </p>
            <p className="money-note">
              {t('offer.until', { date: format.date(o.expiresAt), count: o.remaining })}
            </p>
            {signedIn ? (
              <button
                type="button"
                className="button button--primary button--block"
                disabled={checkout.isPending || checkout.isSuccess}
                onClick={() => checkout.mutate(o.creator.user)}
                data-testid="offer-subscribe"
              >
                {t('offer.subscribe')}
              </button>
            ) : (
              <Link className="button button--primary button--block" to="/login" data-testid="offer-login">
                {t('offer.login')}
              </Link>
            )}
            {checkout.isError && <Alert>{errorText(checkout.error)}</Alert>}
            <p className="money-note">{t('subscribe.note')}</p>
          </>
        )}
      </div>
    </div>
  );
}

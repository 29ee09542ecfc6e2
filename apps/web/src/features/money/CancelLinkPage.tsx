import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { useMoneyFormat } from './moneyFormat.ts';
import './money.css';

/**
 * /billing/cancel?token=…: the renewal mail's one-click cancel. No sign-in: the signed token names the
 * one subscription it cancels. The page shows what it cancels (a mail scanner opening the link
 * changes nothing) and one button; no questions.
 */
export default function CancelLinkPage() {
  const { t } = useTranslation('money');
  const format = useMoneyFormat();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const view = useQuery({
    queryKey: ['subscriptions.cancelLink', token],
    queryFn: () => api('subscriptions.cancelLink', { token }),
    enabled: token.length > 0,
    retry: false,
  });
  const cancel = useMutation({ mutationFn: () => api('subscriptions.cancelByLink', { token }) });
  const data = cancel.data ?? view.data;
  const until = data ? format.date(data.periodEnd) : '';
  return (
    <div className="auth-page">
      <div className="card" data-testid="cancel-link-page">
        <h1>{t('cancelLink.title')}</h1>
        {!token && <Alert>{t('cancelLink.missing')}</Alert>}
        {view.isPending && token && <Loader />}
        {view.isError && <Alert>{errorText(view.error)}</Alert>}
        {data && (
          <div className="cancel-link__facts">
            <p>{t('cancelLink.what', { handle: data.creator })}</p>
            {data.nextCharge && (
              <p data-testid="cancel-link-next">
                {t('cancelLink.next', {
                  price: format.cents(data.nextCharge.amountCents),
                  date: format.date(data.nextCharge.at),
                })}
              </p>
            )}
          </div>
        )}
        {cancel.isSuccess ? (
          <Alert tone="success" testId="cancel-link-done">
            {t('cancelLink.done', { date: until })}
          </Alert>
        ) : data?.status === 'active' ? (
          <>
            <p className="money-note">{t('cancelLink.access', { date: until })}</p>
            <button
              type="button"
              className="button button--primary"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate()}
              data-testid="cancel-link-submit"
            >
              {t('cancelLink.submit')}
            </button>
          </>
        ) : data ? (
          <Alert tone="info" testId="cancel-link-already">
            {data.status === 'cancelled' ? t('cancelLink.already', { date: until }) : t('cancelLink.expired')}
          </Alert>
        ) : null}
        {cancel.isError && <Alert>{errorText(cancel.error)}</Alert>}
        <p>
          <Link to="/?feed=my-subscriptions">{t('cancelLink.manage')}</Link>
        </p>
      </div>
    </div>
  );
}

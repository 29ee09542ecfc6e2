import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../ui/Feedback.tsx';
import { forgetPendingCheckout } from './checkout.ts';

/**
 * The message on the creator's page after a subscription checkout: the billing page sends the fan
 * back here with ?payment=approved|declined either way. The flag is read once and removed from the
 * address, so a reload or a shared link does not repeat it.
 */
export function SubscriptionReturnMessage({ handle }: { handle: string }) {
  const { t } = useTranslation('money');
  const [params, setParams] = useSearchParams();
  const [outcome] = useState(() => {
    const flag = params.get('payment');
    return flag === 'approved' || flag === 'declined' ? flag : null;
  });
  useEffect(() => {
    if (!outcome) return;
    forgetPendingCheckout();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('payment');
        return next;
      },
      { replace: true },
    );
  }, [outcome, setParams]);
  if (outcome === 'approved') {
    return (
      <Alert tone="success" testId="checkout-approved">
        {t('subscribe.approved', { handle })}
      </Alert>
    );
  }
  if (outcome === 'declined') {
    return (
      <Alert tone="error" testId="checkout-declined">
        {t('subscribe.declined', { handle })}
      </Alert>
    );
  }
  return null;
}

import type { Post } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, api, errorText } from '../../app/api.ts';
import { useRequireAuth } from '../../app/navigation.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { priceDisplay } from '../feed/format.ts';
import { useMoneyFormat } from './moneyFormat.ts';
import { useWallet, WALLET_KEY } from './useWallet.ts';
import './money.css';

/**
 * The purchase part of the unlock-content overlay: price after discount (original struck and the
 * percent while a discount is active, spec §9), the balance, Unlock, or a way to buy credits.
 */
export function UnlockPurchase({ post, onUnlocked }: { post: Post; onUnlocked: () => void }) {
  const { t } = useTranslation('money');
  const client = useQueryClient();
  const wallet = useWallet();
  const loggedIn = useSession((s) => !!s.token);
  const requireAuth = useRequireAuth();
  const format = useMoneyFormat();
  const shown = priceDisplay(post.price, post.finalPrice, post);
  const unlock = useMutation({
    mutationFn: () => api('posts.unlock', undefined, { params: { id: post._id } }),
    onSuccess: ({ credits }) => {
      client.setQueryData(WALLET_KEY, (old: { credits: number } | undefined) =>
        old ? { ...old, credits } : old,
      );
      void client.invalidateQueries({ queryKey: WALLET_KEY });
      void client.invalidateQueries({ queryKey: ['posts.list'] });
      void client.invalidateQueries({ queryKey: ['wallet.history'] });
      onUnlocked();
    },
  });
  const balance = wallet.data?.credits;
  const short =
    (balance !== undefined && balance < shown.price) ||
    (unlock.error instanceof ApiError && unlock.error.code === 'INSUFFICIENT_CREDITS');
  const count = (value: number) => t('credits.count', { count: value, formatted: format.number(value) });

  return (
    <div className="unlock-purchase">
      <p className="unlock-purchase__price" data-testid="unlock-price">
        <strong>{count(shown.price)}</strong>
        {shown.original !== null && (
          <>
            {' '}
            <span className="sr-only">{t('unlock.original')}</span>
            <s>{count(shown.original)}</s>{' '}
            <span className="discount-badge">{t('unlock.off', { percent: shown.percent })}</span>
          </>
        )}
      </p>
      <p className="unlock-purchase__balance">
        {t('unlock.balance')}:{' '}
        <strong data-testid="unlock-balance">{balance === undefined ? '…' : count(balance)}</strong>
      </p>
      {short ? (
        <>
          <Alert tone="info" testId="unlock-short">
            {t('unlock.short')}
          </Alert>
          <Link
            to="/?feed=my-credits"
            className="button button--primary button--block"
            data-testid="unlock-buy-credits"
          >
            {t('unlock.buyCredits')}
          </Link>
        </>
      ) : (
        <button
          type="button"
          className="button button--primary button--block"
          disabled={unlock.isPending || (loggedIn && balance === undefined)}
          onClick={() =>
            requireAuth({ kind: 'credits', payload: { postId: post._id } }, () => unlock.mutate())
          }
          data-testid="unlock-submit"
        >
          {t('unlock.submit', { price: count(shown.price) })}
        </button>
      )}
      {unlock.isError && !short && <Alert>{errorText(unlock.error)}</Alert>}
    </div>
  );
}

import { GIFT_KINDS } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, api, errorText } from '../../app/api.ts';
import { useRequireAuth } from '../../app/navigation.ts';
import { useUi } from '../../app/ui.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useMoneyFormat } from './moneyFormat.ts';
import { useGiftCosts, useWallet, WALLET_KEY } from './useWallet.ts';
import './money.css';
import { useFeature } from '../../app/features.ts';

const TIP_AMOUNTS = [5, 10, 25, 50, 100] as const;

/** Who is paid; `live`: sent during that live (shown on the stream, counted as live earnings). */
type Target = { creator: string; post?: string; live?: string; message?: string };

/** Tip (amount picker and an optional message), flowers and gift, in credits, for one creator. */
function TipGiftDialog({ target, onClose }: { target: Target; onClose: () => void }) {
  const { t } = useTranslation('money');
  const client = useQueryClient();
  const screen = useUi((s) => s.screen);
  const wallet = useWallet();
  const format = useMoneyFormat();
  const [amount, setAmount] = useState('10');
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const amountId = useId();
  const noteId = useId();
  const count = (value: number) => t('credits.count', { count: value, formatted: format.number(value) });

  const after = (charged: number, credits: number, what: string) => {
    client.setQueryData(WALLET_KEY, (old: { credits: number } | undefined) =>
      old ? { ...old, credits } : old,
    );
    void client.invalidateQueries({ queryKey: WALLET_KEY });
    void client.invalidateQueries({ queryKey: ['wallet.history'] });
    setDone(t('tip.sent', { what, credits: count(charged) }));
  };
  const tip = useMutation({
    mutationFn: () =>
      api('tips.send', {
        creator: target.creator,
        credits: Number(amount),
        post: target.post,
        live: target.live,
        message: note.trim() || undefined,
      }),
    onSuccess: ({ charged, credits }) => after(charged, credits, t('tip.aTip')),
  });
  const gift = useMutation({
    mutationFn: (kind: (typeof GIFT_KINDS)[number]) =>
      api('gifts.send', {
        creator: target.creator,
        kind,
        post: target.post,
        live: target.live,
        message: note.trim() || undefined,
      }),
    onSuccess: ({ charged, credits }, kind) => after(charged, credits, t(`gift.${kind}`)),
  });
  const error = tip.error ?? gift.error;
  const short = error instanceof ApiError && error.code === 'INSUFFICIENT_CREDITS';
  const valid = /^\d+$/.test(amount) && Number(amount) >= 1 && Number(amount) <= 100_000;
  const busy = tip.isPending || gift.isPending;
  const costs = useGiftCosts();
  const tipsOn = useFeature('tips');
  const giftsOn = useFeature('giftsAndFlowers');

  return (
    <Modal
      open
      onClose={onClose}
      title={t('tip.title', { handle: target.creator })}
      testId="tip-dialog"
      variant={screen === 'mobile' ? 'sheet' : 'dialog'}
    >
      <p className="unlock-purchase__balance">
        {t('unlock.balance')}: <strong>{wallet.data ? count(wallet.data.credits) : '…'}</strong>
      </p>
      {tipsOn && (
        <form
          className="tip-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (valid) tip.mutate();
          }}
        >
          <fieldset className="tip-form__amounts">
            <legend>{t('tip.amount')}</legend>
            {TIP_AMOUNTS.map((value) => (
              <button
                key={value}
                type="button"
                className={`chip${amount === String(value) ? ' chip--active' : ''}`}
                aria-pressed={amount === String(value)}
                onClick={() => setAmount(String(value))}
              >
                {value}
              </button>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor={amountId}>{t('tip.custom')}</label>
            <input
              id={amountId}
              inputMode="numeric"
              value={amount}
              onChange={(event) => setAmount(event.target.value.replace(/\D/g, ''))}
              aria-invalid={!valid}
              data-testid="tip-amount"
            />
          </div>
          <div className="field">
            <label htmlFor={noteId}>{t('tip.message')}</label>
            <textarea
              id={noteId}
              maxLength={280}
              rows={2}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </div>
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={!valid || busy}
            data-testid="tip-submit"
          >
            {valid ? t('tip.submit', { credits: count(Number(amount)) }) : t('tip.submitPlain')}
          </button>
        </form>
      )}
      {giftsOn && (
        <>
          <h3 className="money-subtitle">{t('gift.title')}</h3>
          <div className="button-row">
            {GIFT_KINDS.map((kind) => (
              <button
                key={kind}
                type="button"
                className="button"
                disabled={busy}
                onClick={() => gift.mutate(kind)}
                data-testid={`gift-${kind}`}
              >
                {t(`gift.${kind}`)}
                {costs ? ` · ${count(costs[kind])}` : ''}
              </button>
            ))}
          </div>
        </>
      )}
      {done && (
        <Alert tone="success" testId="tip-success">
          {done}
        </Alert>
      )}
      {short ? (
        <Alert tone="info" testId="tip-short">
          {t('unlock.short')} <Link to="/?feed=my-credits">{t('unlock.buyCredits')}</Link>
        </Alert>
      ) : (
        error && <Alert>{errorText(error)}</Alert>
      )}
    </Modal>
  );
}

/** The Tip button (creator page, posts, chat): opens tip, flowers and gift; logged out → login. */
export function TipButton({ creator, post, live, className = 'button' }: Target & { className?: string }) {
  const { t } = useTranslation('money');
  const [open, setOpen] = useState(false);
  const requireAuth = useRequireAuth();
  const tipsOn = useFeature('tips');
  const giftsOn = useFeature('giftsAndFlowers');
  // Both paused by a super: nothing to offer, so no button.
  if (!tipsOn && !giftsOn) return null;
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() =>
          requireAuth({ kind: 'credits', payload: { creator, postId: post ?? '' } }, () => setOpen(true))
        }
        data-testid="tip-button"
      >
        {t('tip.button')}
      </button>
      {open && <TipGiftDialog target={{ creator, post, live }} onClose={() => setOpen(false)} />}
    </>
  );
}

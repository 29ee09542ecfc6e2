import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { Composer } from './Composer.tsx';
import type { Outgoing } from './useChat.ts';

/** A creator's message to every active subscriber, sent after a confirmation. */
export function MassMessage() {
  const { t } = useTranslation('messages');
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Outgoing | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const send = () => {
    if (!draft) return;
    setBusy(true);
    api(
      'message.mass',
      {
        message: draft.text,
        messageUUID: crypto.randomUUID(),
        price: draft.price,
        vaultMedia: draft.vault.map((m) => m._id),
      },
      { files: draft.files },
    )
      .then(({ sent }) => setResult({ tone: 'success', text: t('mass.sent', { count: sent }) }))
      .catch((e: unknown) => setResult({ tone: 'error', text: errorText(e) }))
      .finally(() => {
        setBusy(false);
        setDraft(null);
      });
  };

  return (
    <>
      <button
        type="button"
        className="button button--small"
        onClick={() => {
          setResult(null);
          setOpen(true);
        }}
        data-testid="mass-message"
      >
        {t('mass.open')}
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title={t('mass.title')} testId="mass-message-dialog">
        <p>{t('mass.intro')}</p>
        {result && (
          <Alert tone={result.tone} testId="mass-message-result">
            {result.text}
          </Alert>
        )}
        <Composer onSend={setDraft} allowPrice idPrefix="mass" disabled={busy} />
      </Modal>
      <ConfirmModal
        open={draft !== null}
        title={t('mass.confirmTitle')}
        onConfirm={send}
        onCancel={() => setDraft(null)}
        busy={busy}
        confirmLabel={t('mass.confirm')}
      >
        <p>{t('mass.confirmText')}</p>
      </ConfirmModal>
    </>
  );
}

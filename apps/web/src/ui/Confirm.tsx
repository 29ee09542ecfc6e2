import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './Modal.tsx';

/** A confirmation dialog (delete post, delete file, review status): OK confirms, Cancel closes. */
export function ConfirmModal({
  open,
  title,
  children,
  onConfirm,
  onCancel,
  busy = false,
  danger = false,
  confirmLabel,
  testId = 'confirm-dialog',
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
  confirmLabel?: string;
  testId?: string;
}) {
  const { t } = useTranslation('content');
  return (
    <Modal
      open={open}
      onClose={onCancel}
      title={title}
      testId={testId}
      footer={
        <div className="button-row">
          <button type="button" className="button" onClick={onCancel} data-testid="confirm-cancel">
            {t('confirm.cancel')}
          </button>
          <button
            type="button"
            className={`button ${danger ? 'button--danger' : 'button--primary'}`}
            onClick={onConfirm}
            disabled={busy}
            data-testid="confirm-ok"
          >
            {confirmLabel ?? t('confirm.ok')}
          </button>
        </div>
      }
    >
      {children}
    </Modal>
  );
}

import { useTranslation } from 'react-i18next';
import { useUi } from '../app/ui.store.ts';
import { Modal } from '../ui/Modal.tsx';

/** The app-level alert; when `reload` is set, closing it reloads the page (spec §8). */
export function AppAlert() {
  const { t } = useTranslation('errors');
  const alert = useUi((s) => s.alert);
  const dismiss = useUi((s) => s.dismissAlert);
  const close = () => {
    if (alert?.reload) window.location.reload();
    else dismiss();
  };
  return (
    <Modal open={!!alert} onClose={close} title={t('alert.title')} testId="app-alert">
      <p role="alert" data-testid="alert">
        {alert?.message}
      </p>
      <button
        type="button"
        className="button button--primary"
        onClick={close}
        data-autofocus=""
        data-testid="app-alert-ok"
      >
        {alert?.reload ? t('reload') : t('alert.ok')}
      </button>
    </Modal>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session.store.ts';
import { useUi } from '../../app/ui.store.ts';
import { Icon } from '../../shell/icons.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { NotificationsList } from './NotificationsList.tsx';

/** The bell (spec §2): opens the notifications overlay; the badge counts unread notifications. */
export function NotificationsButton({ label }: { label?: string }) {
  const { t } = useTranslation('shell');
  const { t: tn } = useTranslation('notifications');
  const [open, setOpen] = useState(false);
  const screen = useUi((s) => s.screen);
  const unread = useSession((s) => s.counters?.notificationsUnread ?? s.profile?.notifications ?? 0);
  return (
    <>
      <button
        type="button"
        className={label ? 'bottom-nav__item' : 'icon-button'}
        onClick={() => setOpen(true)}
        aria-label={t('header.notifications', { count: unread })}
        aria-haspopup="dialog"
        data-testid="notifications-button"
      >
        <span className="bottom-nav__icon">
          <Icon name="bell" />
          {unread > 0 && (
            <span className="badge badge--corner" aria-hidden="true" data-testid="notifications-badge">
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </span>
        {label && (
          <span className="bottom-nav__label" aria-hidden="true">
            {label}
          </span>
        )}
      </button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={tn('title')}
        variant={screen === 'mobile' ? 'sheet' : 'dialog'}
        testId="notifications-overlay"
      >
        {open && <NotificationsList onNavigate={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Boundary } from '../../app/hydration.tsx';
import { useSession } from '../../app/session.store.ts';
import { useUi } from '../../app/ui.store.ts';
import { CountButton } from '../../shell/CountButton.tsx';
import { Loader } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';

const NotificationsList = lazy(() =>
  import('./NotificationsList.tsx').then((m) => ({ default: m.NotificationsList })),
);

/** The bell (spec §2): opens the notifications overlay; the badge counts unread notifications. */
export function NotificationsButton({ label }: { label?: string }) {
  const { t } = useTranslation('shell');
  const { t: tn } = useTranslation('notifications');
  const [open, setOpen] = useState(false);
  const screen = useUi((s) => s.screen);
  const unread = useSession((s) => s.counters?.notificationsUnread ?? s.profile?.notifications ?? 0);
  return (
    <>
      <CountButton
        icon="bell"
        count={unread}
        label={label}
        ariaLabel={t('header.notifications', { count: unread })}
        onClick={() => setOpen(true)}
        testId="notifications-button"
        badgeTestId="notifications-badge"
        opensDialog
      />
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={tn('title')}
        variant={screen === 'mobile' ? 'sheet' : 'dialog'}
        testId="notifications-overlay"
      >
        {open && (
          <Boundary fallback={<Loader />}>
            <NotificationsList onNavigate={() => setOpen(false)} />
          </Boundary>
        )}
      </Modal>
    </>
  );
}

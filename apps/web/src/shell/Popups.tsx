import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUi } from '../app/ui.store.ts';

/**
 * Live notification pop-ups (spec §4), fed by the socket; close one or all. They live outside
 * #root (which turns inert under a modal) and stack above every modal (--z-popups), so a pop-up
 * arriving while the messages window is open is seen and can be clicked.
 */
export function NotificationPopups() {
  const { t } = useTranslation('shell');
  const notifications = useUi((s) => s.notifications);
  const close = useUi((s) => s.closeNotification);
  const closeAll = useUi((s) => s.closeAllNotifications);
  if (notifications.length === 0) return null;
  return createPortal(
    <section
      className="popups"
      aria-label={t('popups.label')}
      aria-live="polite"
      data-testid="notification-popups"
    >
      {notifications.length > 1 && (
        <button
          type="button"
          className="button button--small"
          onClick={closeAll}
          data-testid="notifications-close-all"
        >
          {t('popups.closeAll')}
        </button>
      )}
      {notifications.map((notification) => (
        <div key={notification.id} className="popup" data-testid="notification-popup">
          {notification.image && <img src={notification.image} alt="" className="popup__image" />}
          <p className="popup__text">
            {notification.link ? (
              <Link to={notification.link} onClick={() => close(notification.id)}>
                {notification.message}
              </Link>
            ) : (
              notification.message
            )}
          </p>
          <button
            type="button"
            className="icon-button popup__close"
            onClick={() => close(notification.id)}
            aria-label={t('popups.close')}
            data-testid="notification-close"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </section>,
    document.body,
  );
}

import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay, useRequireAuth, useResumeAction } from '../../app/navigation.ts';

/** "Message" on a creator page: opens the chat; a logged-out visitor logs in first and resumes. */
export function MessageUserButton({
  handle,
  testId = 'creator-message',
}: {
  handle: string;
  testId?: string;
}) {
  const { t } = useTranslation('messages');
  const { open } = useOverlay();
  const requireAuth = useRequireAuth();
  const openChat = useCallback(() => open('messages', handle), [open, handle]);
  useResumeAction('message', (payload) => {
    if (payload.user === handle) openChat();
  });
  return (
    <button
      type="button"
      className="button"
      onClick={() => requireAuth({ kind: 'message', payload: { user: handle } }, openChat)}
      data-testid={testId}
    >
      {t('messageUser')}
    </button>
  );
}

import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session.store.ts';
import { ImageAdjustEditor } from './ImageAdjustEditor.tsx';

/** "Change avatar" and "Change cover": pick an image, position it in the adjust editor, upload. */
export function ProfileImagePicker() {
  const { t } = useTranslation('content');
  const [editing, setEditing] = useState<{ kind: 'avatar' | 'cover'; file: File } | null>(null);
  const avatarInput = useRef<HTMLInputElement>(null);
  const coverInput = useRef<HTMLInputElement>(null);
  // The server refuses both until the email is confirmed (the verified flag); say so up front.
  const confirmed = useSession((s) => !!s.user?.verified);
  const pick = (kind: 'avatar' | 'cover') => (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) setEditing({ kind, file });
  };
  return (
    <>
      {!confirmed && (
        <p className="muted" id="picker-needs-email" data-testid="picker-needs-email">
          {t('creator.confirmEmailFirst')}
        </p>
      )}
      <button
        type="button"
        className="button"
        disabled={!confirmed}
        aria-describedby={confirmed ? undefined : 'picker-needs-email'}
        onClick={() => avatarInput.current?.click()}
        data-testid="change-avatar"
      >
        {t('creator.changeAvatar')}
      </button>
      <button
        type="button"
        className="button"
        disabled={!confirmed}
        aria-describedby={confirmed ? undefined : 'picker-needs-email'}
        onClick={() => coverInput.current?.click()}
        data-testid="change-cover"
      >
        {t('creator.changeCover')}
      </button>
      <input
        ref={avatarInput}
        type="file"
        accept="image/*"
        hidden
        onChange={pick('avatar')}
        data-testid="avatar-file"
      />
      <input
        ref={coverInput}
        type="file"
        accept="image/*"
        hidden
        onChange={pick('cover')}
        data-testid="cover-file"
      />
      {editing && (
        <ImageAdjustEditor kind={editing.kind} file={editing.file} onClose={() => setEditing(null)} />
      )}
    </>
  );
}

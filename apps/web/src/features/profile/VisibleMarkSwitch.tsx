import type { Profile } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Switch } from '../../ui/Switch.tsx';

/**
 * The creator's visible mark (ADR 0026): "site/@handle" drawn on every picture fans get, on top of
 * the invisible mark that is always there. Saved at once; the next copies fans load show it.
 */
export function VisibleMarkSwitch({ profile, queryKey }: { profile: Profile; queryKey: readonly string[] }) {
  const { t } = useTranslation('profile');
  const client = useQueryClient();
  const setProfile = useSession((s) => s.setProfile);
  const save = useMutation({
    mutationFn: (on: boolean) => api('user.updateProfile', { visibleWatermark: on }),
    onSuccess: (updated) => {
      setProfile(updated);
      client.setQueryData(queryKey, updated);
    },
  });
  // Shown switched at once; put back if the save fails.
  const [on, setOn] = useState(profile.visibleWatermark);
  const change = (next: boolean) => {
    setOn(next);
    save.mutate(next, { onError: () => setOn(!next) });
  };
  return (
    <section className="visible-mark" data-testid="visible-mark" aria-labelledby="visible-mark-title">
      <h2 id="visible-mark-title">{t('watermark.title')}</h2>
      <p className="muted">{t('watermark.hint')}</p>
      <Switch label={t('watermark.visible')} checked={on} onChange={change} testId="visible-mark-switch" />
      {save.isSuccess && (
        <p className="muted" role="status" data-testid="visible-mark-saved">
          {on ? t('watermark.savedOn') : t('watermark.savedOff')}
        </p>
      )}
      {save.isError && <Alert>{errorText(save.error)}</Alert>}
      <p>
        <Link to="/leaks" data-testid="leak-tracer-link">
          {t('watermark.tracer')}
        </Link>
      </p>
    </section>
  );
}

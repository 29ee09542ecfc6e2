import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';

/**
 * The forensic video mark's backfill (GET /admin/video-mark, ADR 0041): how many private videos
 * from before the mark still wait to be re-encoded with it.
 */
export function VideoMarkStatus() {
  const { t, i18n } = useTranslation('dashboard');
  const query = useQuery({ queryKey: ['admin-video-mark'], queryFn: () => api('admin.videoMark') });
  return (
    <section
      className="dashboard-section"
      data-testid="dashboard-video-mark"
      aria-labelledby="video-mark-title"
    >
      <h2 id="video-mark-title">{t('videoMark.title')}</h2>
      {query.isPending ? (
        <Loader />
      ) : query.isError ? (
        <Alert>{errorText(query.error)}</Alert>
      ) : (
        <>
          <dl className="dashboard-facts">
            <div>
              <dt>{t('videoMark.remaining')}</dt>
              <dd data-testid="video-mark-remaining">
                {new Intl.NumberFormat(i18n.language).format(query.data.remaining)}
              </dd>
            </div>
          </dl>
          <p className="muted dashboard-note">
            {t(query.data.remaining === 0 ? 'videoMark.done' : 'videoMark.note')}
          </p>
        </>
      )}
    </section>
  );
}

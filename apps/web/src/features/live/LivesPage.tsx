import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { hasSomeRole, isCreator, useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import './live.css';

/** /live: lives in progress — of followed creators for fans, every one for staff (who may end any). */
export default function LivesPage() {
  const { t } = useTranslation('live');
  const user = useSession((s) => s.user);
  const staff = hasSomeRole(user, ['super', 'admin', 'coord']);
  const client = useQueryClient();
  const lives = useQuery({
    queryKey: ['lives.now'],
    queryFn: () => api('lives.now'),
    refetchInterval: 15_000,
  });
  const end = useMutation({
    mutationFn: (id: string) => api('lives.end', undefined, { params: { id } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['lives.now'] }),
  });
  return (
    <section className="panel lives" data-testid="lives-page">
      <div className="lives__head">
        <h1 className="panel__title">{staff ? t('list.staffTitle') : t('list.title')}</h1>
        {isCreator(user) && (
          <Link to="/live/new" className="button button--primary">
            {t('list.goLive')}
          </Link>
        )}
      </div>
      {lives.isPending && <Loader />}
      {lives.isError && <Alert>{errorText(lives.error)}</Alert>}
      {end.isError && <Alert>{errorText(end.error)}</Alert>}
      {lives.data?.lives.length === 0 && <p className="muted">{t('list.empty')}</p>}
      <ul className="lives__list">
        {lives.data?.lives.map((l) => (
          <li key={l._id} className="lives__item">
            <Link to={`/live/${l._id}`}>
              <strong>{l.title}</strong>
            </Link>
            <span className="muted">
              {l.creator.name} · {t(`audience.${l.audience}`)} · {t('watch.viewers', { count: l.viewers })}
            </span>
            {staff && (
              <button
                type="button"
                className="button button--danger"
                onClick={() => end.mutate(l._id)}
                data-testid="lives-end"
              >
                {t('owner.end')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

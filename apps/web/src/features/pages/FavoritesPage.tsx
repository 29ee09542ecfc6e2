import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { TextPage } from '../../ui/TextPage.tsx';
import { Author } from '../feed/Author.tsx';

function Following() {
  const { t } = useTranslation('content');
  const following = useQuery({ queryKey: ['user.following'], queryFn: () => api('user.following') });
  if (following.isPending) return <Loader />;
  if (following.isError) return <Alert>{errorText(following.error)}</Alert>;
  if (following.data.users.length === 0) {
    return (
      <p className="empty-state" data-testid="favorites-empty">
        {t('favorites.empty')} <Link to="/?explore=1">{t('favorites.explore')}</Link>
      </p>
    );
  }
  return (
    <ul className="user-list" data-testid="favorites-list">
      {following.data.users.map((user) => (
        <li key={user._id} data-testid="favorite-item">
          <Author user={user} />
        </li>
      ))}
    </ul>
  );
}

/** /favorites: the creators the user follows (user.following). */
export default function FavoritesPage() {
  const { t } = useTranslation('pages');
  const loggedIn = useSession((s) => !!s.token);
  return (
    <TextPage ns="pages" k="favorites" testId="favorites-page">
      {loggedIn ? (
        <Following />
      ) : (
        <p>
          <Link to="/login">{t('favorites.login')}</Link>
        </p>
      )}
    </TextPage>
  );
}

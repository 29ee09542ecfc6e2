import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../app/session.store.ts';
import { FeatureSoon } from '../../ui/Feedback.tsx';
import { TextPage } from '../../ui/TextPage.tsx';

/** /favorites: the creators the user follows. */
export default function FavoritesPage() {
  const { t } = useTranslation('pages');
  const loggedIn = useSession((s) => !!s.token);
  return (
    <TextPage ns="pages" k="favorites" testId="favorites-page">
      {loggedIn ? (
        <FeatureSoon what={t('favorites.soon')} />
      ) : (
        <p>
          <Link to="/login">{t('favorites.login')}</Link>
        </p>
      )}
    </TextPage>
  );
}

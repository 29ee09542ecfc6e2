import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

const LINKS = [
  'about',
  'blog',
  'help',
  'support',
  'contact',
  'terms',
  'privacy',
  'usc2257',
  'dmca',
  'content-removal',
  'support/billing',
] as const;

export function Footer() {
  const { t } = useTranslation('shell');
  return (
    <footer className="app-footer" data-testid="footer">
      <nav aria-label={t('footer.label')}>
        <ul>
          {LINKS.map((path) => (
            <li key={path}>
              <Link to={`/${path}`}>{t(`footer.${path.replace('/', '-')}`)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="app-footer__note">{t('footer.adult')}</p>
    </footer>
  );
}

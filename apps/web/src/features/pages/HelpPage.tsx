import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Faq } from './Faq.tsx';

/** /help: the FAQ. */
export default function HelpPage() {
  const { t } = useTranslation('pages');
  return (
    <div className="text-page" data-testid="help-page">
      <h1>{t('faq.title')}</h1>
      <p className="text-page__intro">{t('faq.intro')}</p>
      <p>
        <Link to="/?feed=wiki" className="button" data-testid="help-wiki-link">
          {t('wiki.link')}
        </Link>
      </p>
      <Faq />
      <p>
        {t('faq.more')} <Link to="/support">{t('support.title')}</Link>
      </p>
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { TEXT_VALUES } from '../../ui/TextPage.tsx';

interface FaqItem {
  q: string;
  a: string;
}

/** The FAQ accordion (native details/summary: keyboard and screen-reader friendly). */
export function Faq() {
  const { t } = useTranslation('pages');
  const items = t('faq.items', { returnObjects: true, ...TEXT_VALUES }) as FaqItem[];
  return (
    <div className="faq" data-testid="faq">
      {items.map((item) => (
        <details key={item.q} className="faq__item">
          <summary>{item.q}</summary>
          <p>{item.a}</p>
        </details>
      ))}
    </div>
  );
}

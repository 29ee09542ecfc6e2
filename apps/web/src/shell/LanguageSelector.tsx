import { LANGUAGES, type Language } from '@fanverse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/session.store.ts';
import { useUi } from '../app/ui.store.ts';

/** en / es; saved locally, sent as ilang, re-renders every text (spec §1). */
export function LanguageSelector() {
  const { t } = useTranslation('shell');
  const id = useId();
  const language = useSession((s) => s.language);
  const setLanguage = useSession((s) => s.setLanguage);
  const queryClient = useQueryClient();
  // At phone width the header is narrow: show the short code (the select keeps its label).
  const short = useUi((s) => s.screen === 'mobile');
  return (
    <div className="language-selector">
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <select
        id={id}
        value={language}
        data-testid="language-selector"
        onChange={(event) => {
          const next = event.target.value as Language;
          // Logged in, the account follows (useAccountLanguageSync), so mails and live pop-ups too.
          setLanguage(next);
          // Server texts (errors, start-up words) come in the request's language: fetch them again.
          void queryClient.invalidateQueries();
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {short ? code.toUpperCase() : t(`language.${code}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

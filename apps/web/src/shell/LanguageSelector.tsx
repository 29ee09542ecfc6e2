import { LANGUAGES, type Language } from '@fanverse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/session.store.ts';

/** en / es; saved locally, sent as ilang, re-renders every text (spec §1). */
export function LanguageSelector() {
  const { t } = useTranslation('shell');
  const id = useId();
  const language = useSession((s) => s.language);
  const setLanguage = useSession((s) => s.setLanguage);
  const queryClient = useQueryClient();
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
          setLanguage(event.target.value as Language);
          // Server texts (errors, start-up words) come in the request's language: fetch them again.
          void queryClient.invalidateQueries();
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {t(`language.${code}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUi } from '../app/ui.store.ts';
import { countryName, sortedCountries } from '../features/profile/countries.ts';
import { Field, FieldTooltip } from './Field.tsx';
import { Modal } from './Modal.tsx';

interface Props {
  name: string;
  label: string;
  hint: string;
  value: string;
  onChange: (code: string) => void;
  error?: string;
}

/** Country: a select on wide screens, a bottom-sheet picker with search at phone width (spec §2). */
export function CountryField({ name, label, hint, value, onChange, error }: Props) {
  const { i18n, t } = useTranslation();
  const mobile = useUi((s) => s.screen === 'mobile');
  const countries = useMemo(() => sortedCountries(i18n.language), [i18n.language]);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const id = useId();
  const searchId = useId();

  if (!mobile) {
    return (
      <Field kind="select" name={name} label={label} value={value} onChange={onChange} error={error}>
        <option value="">{hint}</option>
        {countries.map(({ code, name: country }) => (
          <option key={code} value={code}>
            {country}
          </option>
        ))}
      </Field>
    );
  }

  const needle = query.trim().toLowerCase();
  const shown = needle ? countries.filter((c) => c.name.toLowerCase().includes(needle)) : countries;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <span className="field__label" id={`${id}-label`}>
        {label}
      </span>
      <button
        type="button"
        className="picker-button"
        aria-labelledby={`${id}-label ${id}-value`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid={`field-${name}`}
      >
        <span id={`${id}-value`}>{value ? countryName(value, i18n.language) : hint}</span>
      </button>
      {error && <FieldTooltip id={`${id}-tip`} name={name} hint={hint} error={error} />}
      <Modal open={open} onClose={() => setOpen(false)} title={label} variant="sheet" testId="country-sheet">
        <label htmlFor={searchId} className="sr-only">
          {t('search')}
        </label>
        <input
          id={searchId}
          type="search"
          className="picker-search"
          placeholder={t('search')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <ul className="menu-list picker-list">
          <li>
            <button
              type="button"
              className="menu-list__item"
              onClick={() => {
                onChange('');
                setOpen(false);
              }}
            >
              {hint}
            </button>
          </li>
          {shown.map((country) => (
            <li key={country.code}>
              <button
                type="button"
                className="menu-list__item"
                aria-pressed={country.code === value}
                onClick={() => {
                  onChange(country.code);
                  setOpen(false);
                }}
              >
                {country.name}
              </button>
            </li>
          ))}
        </ul>
      </Modal>
    </div>
  );
}

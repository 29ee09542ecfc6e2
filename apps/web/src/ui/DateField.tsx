import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUi } from '../app/ui.store.ts';
import { Field, FieldTooltip } from './Field.tsx';
import { Modal } from './Modal.tsx';
import './date-field.css';

interface Props {
  name: string;
  label: string;
  hint: string;
  /** YYYY-MM-DD or ''. */
  value: string;
  onChange: (value: string) => void;
  error?: string;
  required?: boolean;
  /** Latest selectable year (e.g. this year minus the minimum age). */
  maxYear?: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

function parts(value: string): { y: string; m: string; d: string } {
  const [y = '', m = '', d = ''] = /^\d{4}-\d{2}-\d{2}$/.test(value) ? value.split('-') : [];
  return { y, m, d };
}

/** A date: the native date input on wide screens, a bottom sheet with day/month/year at phone width (spec §2). */
export function DateField({ name, label, hint, value, onChange, error, required, maxYear }: Props) {
  const { t, i18n } = useTranslation();
  const mobile = useUi((s) => s.screen === 'mobile');
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(parts(value));
  const id = useId();

  if (!mobile) {
    return (
      <Field
        name={name}
        type="date"
        label={label}
        hint={hint}
        value={value}
        onChange={onChange}
        error={error}
        required={required}
        autoComplete="bday"
      />
    );
  }

  const lastYear = maxYear ?? new Date().getFullYear();
  const years = Array.from({ length: 110 }, (_, i) => String(lastYear - i));
  const monthName = new Intl.DateTimeFormat(i18n.language, { month: 'long', timeZone: 'UTC' });
  const months = Array.from({ length: 12 }, (_, i) => ({
    value: pad(i + 1),
    label: monthName.format(new Date(Date.UTC(2000, i, 1))),
  }));
  const daysInMonth =
    draft.y && draft.m ? new Date(Date.UTC(Number(draft.y), Number(draft.m), 0)).getUTCDate() : 31;
  const days = Array.from({ length: daysInMonth }, (_, i) => pad(i + 1));
  const shown = value
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(`${value}T00:00:00Z`),
      )
    : hint;
  const complete = !!(draft.y && draft.m && draft.d && Number(draft.d) <= daysInMonth);

  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <span className="field__label" id={`${id}-label`}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </span>
      <button
        type="button"
        className="picker-button"
        aria-labelledby={`${id}-label ${id}-value`}
        aria-haspopup="dialog"
        aria-invalid={error ? true : undefined}
        onClick={() => {
          setDraft(parts(value));
          setOpen(true);
        }}
        data-testid={`field-${name}`}
      >
        <span id={`${id}-value`}>{shown}</span>
      </button>
      {error && <FieldTooltip id={`${id}-tip`} name={name} hint={hint} error={error} />}
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={label}
        variant="sheet"
        testId="date-sheet"
        footer={
          <button
            type="button"
            className="button button--primary button--block"
            disabled={!complete}
            onClick={() => {
              onChange(`${draft.y}-${draft.m}-${draft.d}`);
              setOpen(false);
            }}
            data-testid="date-sheet-done"
          >
            {t('date.done')}
          </button>
        }
      >
        <div className="date-sheet">
          <label className="field">
            <span className="field__label">{t('date.day')}</span>
            <select
              value={draft.d}
              onChange={(e) => setDraft((d) => ({ ...d, d: e.target.value }))}
              data-testid="date-sheet-day"
            >
              <option value="">—</option>
              {days.map((d) => (
                <option key={d} value={d}>
                  {Number(d)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">{t('date.month')}</span>
            <select
              value={draft.m}
              onChange={(e) => setDraft((d) => ({ ...d, m: e.target.value }))}
              data-testid="date-sheet-month"
            >
              <option value="">—</option>
              {months.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">{t('date.year')}</span>
            <select
              value={draft.y}
              onChange={(e) => setDraft((d) => ({ ...d, y: e.target.value }))}
              data-testid="date-sheet-year"
            >
              <option value="">—</option>
              {years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
          </label>
        </div>
      </Modal>
    </div>
  );
}

import { useTranslation } from 'react-i18next';

/** The buttons under an application step: Back (not on the first step) and the step's submit. */
export function StepActions({
  onBack,
  busy,
  label,
  busyLabel,
  testId,
}: {
  onBack?: () => void;
  busy: boolean;
  label: string;
  busyLabel: string;
  testId: string;
}) {
  const { t } = useTranslation('apply');
  return (
    <div className="button-row apply-form__actions">
      {onBack && (
        <button type="button" className="button" onClick={onBack}>
          {t('back')}
        </button>
      )}
      <button type="submit" className="button button--primary" disabled={busy} data-testid={testId}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}

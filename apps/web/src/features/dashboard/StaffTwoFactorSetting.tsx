import type { PlatformSettingsResponse } from '@fanverse/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { SettingSwitch, useSaveSettings, WithSettings } from './PlatformSettings.tsx';

/** "Require two-step sign-in for all staff" (PATCH /admin/settings; ADR 0027): coordinators too. */
export function StaffTwoFactorSetting() {
  return <WithSettings>{(settings) => <StaffTwoFactorForm settings={settings} />}</WithSettings>;
}

function StaffTwoFactorForm({ settings }: { settings: PlatformSettingsResponse }) {
  const { t } = useTranslation('dashboard');
  const [on, setOn] = useState(settings.allStaffTwoFactor);
  const [saved, setSaved] = useState(false);
  useEffect(() => setOn(settings.allStaffTwoFactor), [settings.allStaffTwoFactor]);
  const save = useSaveSettings(() => setSaved(true));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate({ allStaffTwoFactor: on });
  };

  return (
    <section
      className="dashboard-section"
      data-testid="dashboard-staff-security"
      aria-labelledby="staff-security-title"
    >
      <h2 id="staff-security-title">{t('staffSecurity.title')}</h2>
      <form className="settings-form" onSubmit={onSubmit} noValidate>
        <ul className="settings-switches">
          <li>
            <SettingSwitch
              id="setting-all-staff-two-factor"
              label={t('staffSecurity.label')}
              hint={t('staffSecurity.hint')}
              checked={on}
              onChange={(value) => {
                setOn(value);
                setSaved(false);
              }}
            />
          </li>
        </ul>
        <button
          type="submit"
          className="button button--primary"
          disabled={save.isPending || on === settings.allStaffTwoFactor}
          data-testid="staff-security-save"
        >
          {t('staffSecurity.save')}
        </button>
      </form>
      {save.isError && <Alert testId="staff-security-error">{errorText(save.error)}</Alert>}
      {saved && (
        <Alert tone="success" testId="staff-security-saved">
          {t(settings.allStaffTwoFactor ? 'staffSecurity.savedOn' : 'staffSecurity.savedOff')}
        </Alert>
      )}
    </section>
  );
}

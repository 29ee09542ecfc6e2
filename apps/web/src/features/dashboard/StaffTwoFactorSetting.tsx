import type { PlatformSettingsResponse } from '@fanverse/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/api.ts';
import { SettingSwitch, SettingsForm, useSaveSettings, WithSettings } from './PlatformSettings.tsx';

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
    <SettingsForm
      testId="dashboard-staff-security"
      name="staff-security"
      title={t('staffSecurity.title')}
      onSubmit={onSubmit}
      saveLabel={t('staffSecurity.save')}
      saveDisabled={save.isPending || on === settings.allStaffTwoFactor}
      error={save.isError ? errorText(save.error) : null}
      saved={saved && t(settings.allStaffTwoFactor ? 'staffSecurity.savedOn' : 'staffSecurity.savedOff')}
    >
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
    </SettingsForm>
  );
}

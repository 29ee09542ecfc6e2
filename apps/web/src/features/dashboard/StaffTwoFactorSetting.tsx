import type { PlatformSettingsResponse } from '@fanverse/contract';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/api.ts';
import { SettingSwitch, SettingsForm, useSettingsDraft, WithSettings } from './PlatformSettings.tsx';

/** "Require two-step sign-in for all staff" (PATCH /admin/settings; ADR 0027): coordinators too. */
export function StaffTwoFactorSetting() {
  return <WithSettings>{(settings) => <StaffTwoFactorForm settings={settings} />}</WithSettings>;
}

function StaffTwoFactorForm({ settings }: { settings: PlatformSettingsResponse }) {
  const { t } = useTranslation('dashboard');
  const {
    draft: on,
    setDraft,
    saved,
    save,
    submit,
  } = useSettingsDraft(settings.allStaffTwoFactor, (allStaffTwoFactor) => ({ allStaffTwoFactor }));

  return (
    <SettingsForm
      testId="dashboard-staff-security"
      name="staff-security"
      title={t('staffSecurity.title')}
      onSubmit={submit}
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
            onChange={setDraft}
          />
        </li>
      </ul>
    </SettingsForm>
  );
}

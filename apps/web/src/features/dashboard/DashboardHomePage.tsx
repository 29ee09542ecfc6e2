import { AdminUsersList } from './AdminUsersList.tsx';
import { CommissionSetting } from './CommissionSetting.tsx';
import { Overview } from './Overview.tsx';
import { FeatureSettings, PayoutSettings, ServerSettings } from './PlatformSettings.tsx';
import { StaffTwoFactorSetting } from './StaffTwoFactorSetting.tsx';
import { VideoMarkStatus } from './VideoMarkStatus.tsx';

/**
 * /dashboard: platform figures, the commission, payouts, staff security, feature switches, server
 * settings, the video mark's backfill and administrators.
 */
export default function DashboardHomePage() {
  return (
    <div className="dashboard-home">
      <Overview />
      <div className="dashboard-grid">
        <div className="dashboard-stack">
          <CommissionSetting />
          <PayoutSettings />
          <StaffTwoFactorSetting />
        </div>
        <div className="dashboard-stack">
          <FeatureSettings />
          <ServerSettings />
          <VideoMarkStatus />
        </div>
      </div>
      <AdminUsersList />
    </div>
  );
}

import { AdminUsersList } from './AdminUsersList.tsx';
import { CommissionSetting } from './CommissionSetting.tsx';
import { Overview } from './Overview.tsx';
import { PlatformSettings } from './PlatformSettings.tsx';

/** /dashboard: platform figures, the commission, the server's settings and the administrators. */
export default function DashboardHomePage() {
  return (
    <div className="dashboard-home">
      <Overview />
      <div className="dashboard-grid">
        <CommissionSetting />
        <PlatformSettings />
      </div>
      <AdminUsersList />
    </div>
  );
}

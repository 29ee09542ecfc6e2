import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { type VaultFilters as Filters, useVaultFolders } from './vaultQuery.ts';

/** Folder, type, used or not, name and upload day range; each change asks again from page 1. */
export function VaultFilters({ value, onChange }: { value: Filters; onChange: (next: Filters) => void }) {
  const { t } = useTranslation('vault');
  const id = useId();
  const set = (patch: Partial<Filters>) => onChange({ ...value, ...patch });
  const folders = useVaultFolders().data;
  return (
    <div className="vault-filters" data-testid="vault-filters">
      <div className="vault-filters__field vault-filters__field--wide">
        <label htmlFor={`${id}-q`}>{t('filters.search')}</label>
        <input
          id={`${id}-q`}
          type="search"
          value={value.q}
          maxLength={100}
          placeholder={t('filters.searchHint')}
          onChange={(e) => set({ q: e.target.value })}
          data-testid="vault-search"
        />
      </div>
      <div className="vault-filters__field">
        <label htmlFor={`${id}-folder`}>{t('filters.folder')}</label>
        <select
          id={`${id}-folder`}
          value={value.folder}
          onChange={(e) => set({ folder: e.target.value })}
          data-testid="vault-folder"
        >
          <option value="all">{t('filters.folders.all')}</option>
          <option value="none">{t('filters.folders.none', { count: folders?.unfiled ?? 0 })}</option>
          {folders?.folders.map((f) => (
            <option key={f._id} value={f._id}>
              {t('filters.folders.one', { name: f.name, count: f.files })}
            </option>
          ))}
        </select>
      </div>
      <div className="vault-filters__field">
        <label htmlFor={`${id}-type`}>{t('filters.type')}</label>
        <select
          id={`${id}-type`}
          value={value.type}
          onChange={(e) => set({ type: e.target.value as Filters['type'] })}
          data-testid="vault-type"
        >
          {(['all', 'image', 'video'] as const).map((v) => (
            <option key={v} value={v}>
              {t(`filters.types.${v}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="vault-filters__field">
        <label htmlFor={`${id}-used`}>{t('filters.used')}</label>
        <select
          id={`${id}-used`}
          value={value.used}
          onChange={(e) => set({ used: e.target.value as Filters['used'] })}
          data-testid="vault-used"
        >
          {(['all', 'used', 'unused'] as const).map((v) => (
            <option key={v} value={v}>
              {t(`filters.uses.${v}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="vault-filters__field">
        <label htmlFor={`${id}-from`}>{t('filters.from')}</label>
        <input
          id={`${id}-from`}
          type="date"
          value={value.from}
          onChange={(e) => set({ from: e.target.value })}
          data-testid="vault-from"
        />
      </div>
      <div className="vault-filters__field">
        <label htmlFor={`${id}-to`}>{t('filters.to')}</label>
        <input
          id={`${id}-to`}
          type="date"
          value={value.to}
          onChange={(e) => set({ to: e.target.value })}
          data-testid="vault-to"
        />
      </div>
    </div>
  );
}

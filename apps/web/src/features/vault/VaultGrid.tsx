import type { VaultItem } from '@fanverse/contract';
import './vault.css';
import { useTranslation } from 'react-i18next';
import { useMoneyFormat } from '../money/moneyFormat.ts';

/** Where a file is used, in words ("2 posts · 1 message"), or "Not used". */
export function usesText(
  item: VaultItem,
  t: (key: string, opts?: Record<string, unknown>) => string,
): string {
  const parts: string[] = [];
  if (item.uses.posts) parts.push(t('uses.posts', { count: item.uses.posts }));
  if (item.uses.messages) parts.push(t('uses.messages', { count: item.uses.messages }));
  if (item.uses.welcome) parts.push(t('uses.welcome'));
  if (item.uses.gallery) parts.push(t('uses.gallery', { count: item.uses.gallery }));
  return parts.length ? parts.join(' · ') : t('uses.none');
}

/**
 * The files as tiles: a thumbnail, the name, the upload date and where each is used. `pick` makes
 * each tile a toggle (the picker); `onDelete` adds a delete button (the vault page).
 */
export function VaultGrid({
  items,
  picked,
  onPick,
  onDelete,
  onOpen,
}: {
  items: VaultItem[];
  picked?: ReadonlySet<string>;
  onPick?: (item: VaultItem) => void;
  onDelete?: (item: VaultItem) => void;
  /** Opens the file's details (where it is used, what it sold, its folder). */
  onOpen?: (item: VaultItem) => void;
}) {
  const { t, i18n } = useTranslation('vault');
  const money = useMoneyFormat();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (
    <ul className="vault-grid" data-testid="vault-grid">
      {items.map((item) => {
        const thumb = item.media.thumb ?? item.media.poster ?? item.media.blur;
        const selected = picked?.has(item._id) ?? false;
        const body = (
          <>
            <span className="vault-tile__frame">
              {thumb ? (
                <img className="vault-tile__thumb" src={thumb} alt="" loading="lazy" />
              ) : (
                <span className="vault-tile__thumb vault-tile__thumb--empty" />
              )}
              <span className="vault-tile__kind">{t(`filters.types.${item.media.type}`)}</span>
            </span>
            <span className="vault-tile__name">{item.name}</span>
            <span className="vault-tile__meta">{date.format(new Date(item.date))}</span>
            <span className="vault-tile__meta" data-testid="vault-uses">
              {usesText(item, t)}
            </span>
            {item.earned.sales > 0 && (
              <span className="vault-tile__meta vault-tile__earned" data-testid="vault-earned">
                {t('earned.short', { count: item.earned.sales, amount: money.cents(item.earned.earnings) })}
              </span>
            )}
          </>
        );
        return (
          <li key={item._id} className={`vault-tile${selected ? ' is-picked' : ''}`} data-testid="vault-item">
            {onPick ? (
              <button
                type="button"
                className="vault-tile__pick"
                aria-pressed={selected}
                onClick={() => onPick(item)}
                data-testid="vault-pick"
              >
                {body}
              </button>
            ) : (
              <div className="vault-tile__pick">{body}</div>
            )}
            {(onOpen || onDelete) && (
              <div className="vault-tile__actions">
                {onOpen && (
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => onOpen(item)}
                    aria-label={t('details.label', { name: item.name })}
                    data-testid="vault-details"
                  >
                    {t('details.button')}
                  </button>
                )}
                {onDelete && (
                  <button
                    type="button"
                    className="button button--small vault-tile__delete"
                    onClick={() => onDelete(item)}
                    aria-label={t('delete.label', { name: item.name })}
                    data-testid="vault-delete"
                  >
                    {t('delete.button')}
                  </button>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

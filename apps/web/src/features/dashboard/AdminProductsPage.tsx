import type { CreditBag, EndpointInput } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { statsFormatters } from '../statistics/statsFormat.ts';
import { BagEditor } from './BagEditor.tsx';
import { GiftPrices } from './GiftPrices.tsx';

export const BAGS_KEY = ['credit-bags'];

/** /dashboard/admin/products: the products fans buy — credit bags and the gift prices. */
export default function AdminProductsPage() {
  return (
    <div className="dashboard-home">
      <CreditBags />
      <GiftPrices />
    </div>
  );
}

/** The credit bags on sale, edited and added with confirmation. */
function CreditBags() {
  const { t, i18n } = useTranslation('dashboard');
  const format = useMemo(() => statsFormatters(i18n.language), [i18n.language]);
  const client = useQueryClient();
  const query = useQuery({ queryKey: BAGS_KEY, queryFn: () => api('credits.bags') });
  const [editing, setEditing] = useState<{ bag: CreditBag | null; position: number } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (input: EndpointInput<'admin.saveCreditBag'>) => api('admin.saveCreditBag', input),
    onSuccess: (data, input) => {
      client.setQueryData(BAGS_KEY, data);
      setNotice(t('products.saved', { id: input.id }));
      setEditing(null);
    },
  });
  const bags = query.data?.bags ?? [];

  return (
    <section className="dashboard-section" data-testid="admin-products" aria-labelledby="products-title">
      <div className="dashboard-section__head">
        <h2 id="products-title">{t('products.title')}</h2>
        <button
          type="button"
          className="button button--primary"
          onClick={() => {
            setNotice(null);
            save.reset();
            setEditing({ bag: null, position: bags.length + 1 });
          }}
          disabled={query.isPending}
          data-testid="product-add"
        >
          {t('products.add')}
        </button>
      </div>
      <p className="muted">{t('products.intro')}</p>
      {notice && (
        <Alert tone="success" testId="product-notice">
          {notice}
        </Alert>
      )}
      {query.isPending ? (
        <Loader />
      ) : query.isError ? (
        <Alert>{errorText(query.error)}</Alert>
      ) : bags.length === 0 ? (
        <p className="admin-empty">{t('products.empty')}</p>
      ) : (
        <table className="admin-table products-table" data-testid="products-table">
          <caption className="sr-only">{t('products.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('products.position')}</th>
              <th scope="col">{t('products.id')}</th>
              <th scope="col" className="num">
                {t('products.credits')}
              </th>
              <th scope="col" className="num">
                {t('products.price')}
              </th>
              <th scope="col">{t('products.eticketid')}</th>
              <th scope="col">{t('products.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {bags.map((bag, index) => (
              <tr key={bag.id} data-testid="product-row" data-id={bag.id}>
                <td data-label={t('products.position')}>{index + 1}</td>
                <td data-label={t('products.id')}>
                  <strong>{bag.id}</strong>
                </td>
                <td data-label={t('products.credits')} className="num">
                  {format.count(bag.credits)}
                </td>
                <td data-label={t('products.price')} className="num" data-testid="product-price">
                  {format.money(bag.priceCents)}
                  <br />
                  <small className="muted">
                    {t('products.perCredit', { price: format.money(bag.priceCents / bag.credits) })}
                  </small>
                </td>
                <td data-label={t('products.eticketid')} className="admin-wrap">
                  <code>{bag.eticketid}</code>
                </td>
                <td data-label={t('products.actions')}>
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => {
                      setNotice(null);
                      save.reset();
                      setEditing({ bag, position: index + 1 });
                    }}
                    aria-label={`${t('products.edit')} ${bag.id}`}
                    data-testid="product-edit"
                  >
                    {t('products.edit')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <BagEditor
          bag={editing.bag}
          position={editing.position}
          takenIds={bags.map((b) => b.id)}
          busy={save.isPending}
          serverError={save.error}
          onSave={(input) => save.mutate(input)}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}

import { commissionRequestSchema } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { NumberSetting } from './NumberSetting.tsx';

const KEY = ['admin-commission'];

/** The platform commission percent (GET / POST /admin/commission); the server enforces the range. */
export function CommissionSetting() {
  const { t } = useTranslation('dashboard');
  const client = useQueryClient();
  const query = useQuery({ queryKey: KEY, queryFn: () => api('admin.commission') });
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<number | null>(null);
  useEffect(() => {
    if (query.data) setValue(String(query.data.platformPercent));
  }, [query.data]);
  const save = useMutation({
    mutationFn: (percent: number) => api('admin.setCommission', { percent }),
    onSuccess: (data) => {
      client.setQueryData(KEY, data);
      setSaved(data.platformPercent);
    },
    onError: (e) => setError(errorText(e)),
  });

  if (query.isPending) return <Loader />;
  if (query.isError) return <Alert>{errorText(query.error)}</Alert>;
  const terms = query.data;
  // The platform pays the referral share out of its commission, and creators keep a minimum.
  const min = terms.referralPercent;
  const max = 100 - terms.minCreatorPercent;
  const parsed = commissionRequestSchema.safeParse({ percent: value.trim() === '' ? undefined : value });
  const percent = parsed.success ? parsed.data.percent : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    if (percent === null || percent < min || percent > max) {
      setError(t('commission.outOfRange', { min, max }));
      return;
    }
    setError(null);
    save.mutate(percent);
  };

  return (
    <section
      className="dashboard-section"
      data-testid="dashboard-commission"
      aria-labelledby="commission-title"
    >
      <h2 id="commission-title">{t('commission.title')}</h2>
      <p className="muted">{t('commission.intro')}</p>
      <form className="commission-form" onSubmit={onSubmit} noValidate>
        <NumberSetting
          id="commission-input"
          label={t('commission.label')}
          value={value}
          min={min}
          max={max}
          invalid={Boolean(error)}
          describedBy="commission-range"
          testId="commission-input"
          onChange={(next) => {
            setValue(next);
            setError(null);
            setSaved(null);
          }}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={save.isPending}
          data-testid="commission-save"
        >
          {t('commission.save')}
        </button>
      </form>
      <p id="commission-range" className="muted dashboard-note">
        {t('commission.range', {
          min,
          max,
          minCreator: terms.minCreatorPercent,
          referral: terms.referralPercent,
        })}{' '}
        {percent !== null &&
          percent >= 0 &&
          percent <= 100 &&
          t('commission.creatorKeeps', { percent: 100 - percent })}
      </p>
      {error && <Alert testId="commission-error">{error}</Alert>}
      {saved !== null && (
        <Alert tone="success" testId="commission-saved">
          {t('commission.saved', { percent: saved })}
        </Alert>
      )}
    </section>
  );
}

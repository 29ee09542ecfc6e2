import {
  BUNDLE_MONTHS,
  type BundleMonths,
  type EndpointInput,
  type Media,
  type OfferKind,
} from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useFeature } from '../../app/features.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { VaultPicker } from '../vault/VaultPicker.tsx';
import { MoneyForm } from './MoneyForm.tsx';
import { useMoneyFormat } from './moneyFormat.ts';

const KEY = ['creator.offers'] as const;
type Offers = Awaited<ReturnType<typeof api<'creator.offers'>>>;

function BundlesForm({ offers }: { offers: Offers }) {
  const { t } = useTranslation('money');
  const format = useMoneyFormat();
  const client = useQueryClient();
  const [percents, setPercents] = useState<Record<BundleMonths, string>>(() => {
    const of = (m: number) => String(offers.bundles.find((b) => b.months === m)?.discountPercent ?? '');
    return { 3: of(3), 6: of(6), 12: of(12) };
  });
  const save = useMutation({
    mutationFn: (body: EndpointInput<'creator.saveBundles'>) => api('creator.saveBundles', body),
    onSuccess: (data) => client.setQueryData(KEY, data),
  });
  const submit = () => {
    const bundles = BUNDLE_MONTHS.filter((m) => percents[m].trim() !== '').map((m) => ({
      months: m,
      discountPercent: Number(percents[m]),
    }));
    save.mutate({ bundles });
  };
  return (
    <MoneyForm
      title={t('offers.bundles')}
      level={3}
      testId="bundles-form"
      onSubmit={submit}
      pending={save.isPending}
      saveLabel={t('offers.save')}
      saveTestId="bundles-save"
      error={save.error}
    >
      <p className="money-note">{t('offers.bundlesHint')}</p>
      {BUNDLE_MONTHS.map((m) => (
        <Field
          key={m}
          name={`bundle${m}`}
          label={t('offers.bundlePercent', { months: m })}
          hint="10"
          inputMode="numeric"
          value={percents[m]}
          onChange={(v) => setPercents((p) => ({ ...p, [m]: v }))}
        />
      ))}
      {offers.bundles.length > 0 && (
        <ul className="money-note" data-testid="bundles-prices">
          {offers.bundles.map((b) => (
            <li key={b.months}>
              {t('offers.bundlePrice', {
                months: b.months,
                price: format.cents(b.priceCents),
                percent: b.discountPercent,
              })}
            </li>
          ))}
        </ul>
      )}
    </MoneyForm>
  );
}

function LinkForm() {
  const { t } = useTranslation('money');
  const client = useQueryClient();
  const [kind, setKind] = useState<OfferKind>('trial');
  const [amount, setAmount] = useState('7');
  const [until, setUntil] = useState('');
  const [uses, setUses] = useState('100');
  const create = useMutation({
    mutationFn: (body: EndpointInput<'creator.createOfferLink'>) => api('creator.createOfferLink', body),
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
  });
  const submit = () => {
    create.mutate({
      kind,
      ...(kind === 'trial' ? { trialDays: Number(amount) } : { discountPercent: Number(amount) }),
      // The link ends at the end of the chosen day, local time.
      expiresAt: until ? new Date(`${until}T23:59:59`).toISOString() : '',
      maxUses: Number(uses),
    });
  };
  return (
    <MoneyForm
      title={t('offers.newLink')}
      level={3}
      testId="offer-link-form"
      onSubmit={submit}
      pending={create.isPending}
      saveLabel={t('offers.create')}
      saveTestId="offer-link-create"
      error={create.error}
    >
      <Field
        kind="select"
        name="offerKind"
        label={t('offers.kind')}
        value={kind}
        onChange={(v) => setKind(v as OfferKind)}
      >
        <option value="trial">{t('offers.kinds.trial')}</option>
        <option value="discount">{t('offers.kinds.discount')}</option>
      </Field>
      <Field
        name="offerAmount"
        label={kind === 'trial' ? t('offers.trialDays') : t('offers.discountPercent')}
        inputMode="numeric"
        value={amount}
        onChange={setAmount}
      />
      <Field name="offerUntil" label={t('offers.expires')} type="date" value={until} onChange={setUntil} />
      <Field
        name="offerUses"
        label={t('offers.maxUses')}
        inputMode="numeric"
        value={uses}
        onChange={setUses}
      />
    </MoneyForm>
  );
}

function WelcomeForm({ offers }: { offers: Offers }) {
  const { t } = useTranslation('money');
  const client = useQueryClient();
  const [text, setText] = useState(offers.welcome?.text ?? '');
  const [active, setActive] = useState(offers.welcome?.active ?? true);
  const [media, setMedia] = useState<Media[]>(offers.welcome?.media ?? []);
  const [price, setPrice] = useState(offers.welcome?.price ? String(offers.welcome.price) : '');
  const paidOn = useFeature('paidMessages');
  const save = useMutation({
    mutationFn: (body: EndpointInput<'creator.saveWelcome'>) => api('creator.saveWelcome', body),
    onSuccess: (data) => client.setQueryData(KEY, data),
  });
  return (
    <MoneyForm
      title={t('offers.welcome')}
      level={3}
      testId="welcome-form"
      pending={save.isPending}
      saveLabel={t('offers.save')}
      saveTestId="welcome-save"
      saved={save.isSuccess ? t('offers.saved') : null}
      savedTestId="welcome-saved"
      error={save.error}
      onSubmit={() =>
        save.mutate({
          text,
          active,
          price: paidOn && media.length ? Number(price) || 0 : 0,
          vaultMedia: media.map((m) => m._id),
        })
      }
    >
      <Field
        kind="textarea"
        name="welcomeText"
        label={t('offers.welcomeText')}
        value={text}
        onChange={setText}
        maxLength={1024}
      />
      <div className="field field--checkbox">
        <input
          id="welcome-active"
          type="checkbox"
          checked={active}
          onChange={(e) => setActive(e.target.checked)}
        />
        <label htmlFor="welcome-active">{t('offers.welcomeActive')}</label>
      </div>
      {/* Vault files sent with the message; a price locks them until the subscriber pays. */}
      <p className="money-note">{t('offers.welcomeMediaHint')}</p>
      {media.length > 0 && (
        <ul className="welcome-media" data-testid="welcome-media">
          {media.map((m) => (
            <li key={m._id}>
              <img src={m.thumb ?? m.poster ?? m.blur ?? ''} alt="" />
              <button
                type="button"
                className="link-button"
                onClick={() => setMedia((old) => old.filter((o) => o._id !== m._id))}
              >
                {t('offers.welcomeMediaRemove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <VaultPicker
        max={Math.max(0, 10 - media.length)}
        onPick={(items) =>
          setMedia((old) => [
            ...old,
            ...items.map((i) => i.media).filter((m) => !old.some((o) => o._id === m._id)),
          ])
        }
        testId="welcome-vault"
      />
      {paidOn && media.length > 0 && (
        <Field
          name="welcomePrice"
          label={t('offers.welcomePrice')}
          hint="0"
          inputMode="numeric"
          value={price}
          onChange={setPrice}
        />
      )}
    </MoneyForm>
  );
}

/** The creator's offers (issue 19): bundles, trial and discount links, the welcome message. */
export function CreatorOffersForm() {
  const { t } = useTranslation('money');
  const format = useMoneyFormat();
  const offers = useQuery({ queryKey: KEY, queryFn: () => api('creator.offers') });
  if (offers.isPending) return <Loader />;
  if (offers.isError) return <Alert>{errorText(offers.error)}</Alert>;
  return (
    <section className="creator-offers" data-testid="creator-offers" aria-labelledby="creator-offers-title">
      <h2 id="creator-offers-title" className="money-subtitle">
        {t('offers.title')}
      </h2>
      <BundlesForm offers={offers.data} />
      <LinkForm />
      {offers.data.links.length > 0 && (
        <ul className="offer-links" data-testid="offer-links">
          {offers.data.links.map((l) => (
            <li key={l._id}>
              <code>{`${window.location.origin}/offer/${l.code}`}</code>{' '}
              <span className="muted">
                {l.kind === 'trial'
                  ? t('offers.trialShort', { days: l.trialDays })
                  : t('offers.discountShort', { percent: l.discountPercent })}{' '}
                · {t('offers.usesShort', { uses: l.uses, max: l.maxUses, date: format.date(l.expiresAt) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <WelcomeForm offers={offers.data} />
    </section>
  );
}

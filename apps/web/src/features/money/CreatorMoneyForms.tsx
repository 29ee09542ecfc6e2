import {
  type CreatorProfile,
  type EndpointInput,
  PAYOUT_METHOD_KINDS,
  payoutMethodRequestSchema,
  pricingRequestSchema,
} from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { CountryField } from '../../ui/CountryField.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { type FieldErrors, serverFieldErrors, validateWith } from '../../ui/formErrors.ts';
import { MoneyForm } from './MoneyForm.tsx';
import { useMoneyFormat } from './moneyFormat.ts';

type PayoutKind = (typeof PAYOUT_METHOD_KINDS)[number];

/** Cents to the "9.99" text of the price field. */
const dollarsText = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));

function PricingFields({ profile }: { profile: CreatorProfile }) {
  const { t } = useTranslation('money');
  const language = useSession((s) => s.language);
  const format = useMoneyFormat();
  const client = useQueryClient();
  const [price, setPrice] = useState(dollarsText(profile.subscriptionPrice));
  const [discountOn, setDiscountOn] = useState(profile.discountStatus === 'on');
  const [percent, setPercent] = useState(String(profile.discountPercent || ''));
  const [until, setUntil] = useState(profile.discountDateLimit?.slice(0, 10) ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: EndpointInput<'creator.pricing'>) => api('creator.pricing', body),
    onSuccess: () =>
      void client.invalidateQueries({ queryKey: ['creator.profile', profile.user.toLowerCase()] }),
    onError: (error) => setErrors(serverFieldErrors(error)),
  });
  const submit = () => {
    const values = {
      price,
      discountStatus: discountOn ? 'on' : 'off',
      discountPercent: discountOn ? percent || '0' : '0',
      // The discount ends at the end of the chosen day, local time.
      discountDateLimit: discountOn && until ? new Date(`${until}T23:59:59`).toISOString() : null,
    };
    const checked = validateWith(pricingRequestSchema, values, language);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate({
      ...values,
      discountStatus: discountOn ? 'on' : 'off',
      discountPercent: Number(values.discountPercent),
    });
  };
  return (
    <MoneyForm
      title={t('pricing.title')}
      testId="pricing-form"
      onSubmit={submit}
      pending={save.isPending}
      saveLabel={t('pricing.save')}
      saveTestId="pricing-save"
      saved={save.data ? t('pricing.saved', { price: format.cents(save.data.finalPriceCents) }) : null}
      savedTestId="pricing-saved"
      error={save.error}
    >
      <Field
        name="price"
        label={t('pricing.price')}
        hint="9.99"
        inputMode="text"
        value={price}
        onChange={setPrice}
        error={errors.price}
      />
      <div className="field field--checkbox">
        <input
          id="pricing-discount"
          type="checkbox"
          checked={discountOn}
          onChange={(e) => setDiscountOn(e.target.checked)}
          data-testid="field-discountStatus"
        />
        <label htmlFor="pricing-discount">{t('pricing.discount')}</label>
      </div>
      {discountOn && (
        <>
          <Field
            name="discountPercent"
            label={t('pricing.percent')}
            hint="20"
            inputMode="numeric"
            value={percent}
            onChange={setPercent}
            error={errors.discountPercent}
          />
          <Field
            name="discountDateLimit"
            label={t('pricing.until')}
            type="date"
            value={until}
            onChange={setUntil}
            error={errors.discountDateLimit}
          />
        </>
      )}
    </MoneyForm>
  );
}

/** Subscription price in dollars and its discount (spec §9), prefilled from the own profile. */
export function PricingForm({ handle }: { handle: string }) {
  const profile = useQuery({
    queryKey: ['creator.profile', handle.toLowerCase()],
    queryFn: () => api('creator.profile', undefined, { params: { id: handle } }),
  });
  if (profile.isPending) return <Loader />;
  if (profile.isError) return <Alert>{errorText(profile.error)}</Alert>;
  return <PricingFields profile={profile.data} />;
}

const FIELDS: Record<PayoutKind, readonly string[]> = {
  card: ['holder', 'cardNumber'],
  bank: ['holder', 'bank', 'accountNumber', 'country'],
  transfer: ['service', 'recipient', 'country'],
};

/** Payout method: payment-partner card, local bank transfer or transfer service (spec §1), masked. */
export function PayoutMethodForm() {
  const { t } = useTranslation('money');
  const language = useSession((s) => s.language);
  const client = useQueryClient();
  const current = useQuery({
    queryKey: ['creator.payoutMethod'],
    queryFn: () => api('creator.payoutMethod'),
  });
  const [kind, setKind] = useState<PayoutKind>('card');
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: EndpointInput<'creator.setPayoutMethod'>) => api('creator.setPayoutMethod', body),
    onSuccess: (data) => {
      client.setQueryData(['creator.payoutMethod'], data);
      setValues({});
    },
    onError: (error) => setErrors(serverFieldErrors(error)),
  });
  const submit = () => {
    const body: Record<string, string> = { kind };
    for (const name of FIELDS[kind]) {
      const raw = values[name] ?? '';
      body[name] = name === 'cardNumber' ? raw.replace(/\s/g, '') : raw;
    }
    const checked = validateWith(payoutMethodRequestSchema, body, language);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(checked.data);
  };
  const method = current.data?.method;
  return (
    <MoneyForm
      title={t('payout.title')}
      testId="payout-method-form"
      onSubmit={submit}
      pending={save.isPending}
      saveLabel={t('payout.save')}
      saveTestId="payout-save"
      saved={save.isSuccess ? t('payout.saved') : null}
      savedTestId="payout-saved"
      error={save.error}
    >
      <p className="money-note" data-testid="payout-method-current">
        {method
          ? t('payout.current', { kind: t(`payout.kinds.${method.kind}`), masked: method.masked })
          : t('payout.none')}
      </p>
      <fieldset className="money-radios">
        <legend>{t('payout.kind')}</legend>
        {PAYOUT_METHOD_KINDS.map((value) => (
          <label key={value} className="money-radio">
            <input
              type="radio"
              name="payout-kind"
              value={value}
              checked={kind === value}
              onChange={() => {
                setKind(value);
                setErrors({});
              }}
              data-testid={`payout-kind-${value}`}
            />
            {t(`payout.kinds.${value}`)}
          </label>
        ))}
      </fieldset>
      {FIELDS[kind].map((name) =>
        name === 'country' ? (
          <CountryField
            key={name}
            name={name}
            label={t('payout.fields.country')}
            hint={t('payout.fields.countryHint')}
            value={values[name] ?? ''}
            onChange={(code) => setValues({ ...values, [name]: code })}
            error={errors[name]}
          />
        ) : (
          <Field
            key={name}
            name={name}
            label={t(`payout.fields.${name}`)}
            inputMode={name === 'cardNumber' ? 'numeric' : 'text'}
            autoComplete="off"
            value={values[name] ?? ''}
            onChange={(value) => setValues({ ...values, [name]: value })}
            error={errors[name]}
          />
        ),
      )}
    </MoneyForm>
  );
}

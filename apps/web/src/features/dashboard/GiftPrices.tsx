import {
  MAX_GIFT_CREDITS,
  type PlatformSettingsResponse,
  platformSettingsRequestSchema,
} from '@fanverse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { NumberSetting } from './NumberSetting.tsx';
import { useSettingsDraft, WithSettings } from './PlatformSettings.tsx';

const KINDS = ['flowers', 'gift'] as const;
type Kind = (typeof KINDS)[number];

/** The gift products fans send creators: the credit price of flowers and of a gift (super). */
export function GiftPrices() {
  return <WithSettings>{(settings) => <GiftPricesForm settings={settings} />}</WithSettings>;
}

function GiftPricesForm({ settings }: { settings: PlatformSettingsResponse }) {
  const { t, i18n } = useTranslation('dashboard');
  const [errors, setErrors] = useState<Partial<Record<Kind, string>>>({});
  const {
    draft: values,
    setDraft,
    saved,
    save,
    submit,
  } = useSettingsDraft<Record<Kind, string>>(
    { flowers: String(settings.giftCosts.flowers), gift: String(settings.giftCosts.gift) },
    (giftCosts) => {
      const parsed = platformSettingsRequestSchema.safeParse({ giftCosts });
      if (!parsed.success) {
        const failing = new Set(parsed.error.issues.map((issue) => issue.path[1]));
        const max = new Intl.NumberFormat(i18n.language).format(MAX_GIFT_CREDITS);
        const message = t('gifts.invalid', { max });
        setErrors(Object.fromEntries(KINDS.filter((k) => failing.has(k)).map((k) => [k, message])));
        return null;
      }
      setErrors({});
      return parsed.data;
    },
  );
  const serverFields = save.error instanceof ApiError ? save.error.fields : {};

  return (
    <section className="dashboard-section" data-testid="gift-prices" aria-labelledby="gift-prices-title">
      <h2 id="gift-prices-title">{t('gifts.title')}</h2>
      <p id="gift-prices-note" className="muted">
        {t('gifts.intro')}
      </p>
      <form className="settings-form settings-form--inline" onSubmit={submit} noValidate>
        {KINDS.map((kind) => (
          <NumberSetting
            key={kind}
            id={`gift-price-${kind}`}
            label={t(`gifts.${kind}`)}
            value={values[kind]}
            min={1}
            max={MAX_GIFT_CREDITS}
            invalid={Boolean(errors[kind] ?? serverFields[`giftCosts.${kind}`])}
            describedBy="gift-prices-note"
            testId={`gift-price-${kind}`}
            onChange={(value) => {
              setDraft({ ...values, [kind]: value });
              setErrors({ ...errors, [kind]: undefined });
            }}
          />
        ))}
        <button
          type="submit"
          className="button button--primary"
          disabled={save.isPending}
          data-testid="gift-prices-save"
        >
          {t('gifts.save')}
        </button>
      </form>
      {(errors.flowers || errors.gift) && (
        <Alert testId="gift-prices-error">{errors.flowers ?? errors.gift}</Alert>
      )}
      {save.isError && <Alert testId="gift-prices-error">{errorText(save.error)}</Alert>}
      {saved && (
        <Alert tone="success" testId="gift-prices-saved">
          {t('gifts.saved', settings.giftCosts)}
        </Alert>
      )}
    </section>
  );
}

import type { CreditBag } from '@fanverse/contract';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { type FieldErrors, serverFieldErrors } from '../../ui/formErrors.ts';
import { Modal } from '../../ui/Modal.tsx';
import { statsFormatters } from '../statistics/statsFormat.ts';
import { type BagFormValues, type BagInput, bagFormValues, validateBag } from './bagForm.ts';

/** The edit / add dialog of a credit bag; saving asks for confirmation first. */
export function BagEditor({
  bag,
  position,
  takenIds,
  busy,
  serverError,
  onSave,
  onClose,
}: {
  bag: CreditBag | null;
  position: number;
  takenIds: string[];
  busy: boolean;
  serverError: unknown;
  onSave: (input: BagInput) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('dashboard');
  const language = useSession((s) => s.language);
  const format = useMemo(() => statsFormatters(i18n.language), [i18n.language]);
  const [values, setValues] = useState<BagFormValues>(() => bagFormValues(bag, position));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState<BagInput | null>(null);
  const set = (patch: Partial<BagFormValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const key of Object.keys(patch)) delete next[key];
      return next;
    });
  };
  const shownErrors = { ...serverFieldErrors(serverError), ...errors };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateBag(values, language, t('products.priceInvalid'));
    const found: FieldErrors = result.ok ? {} : result.errors;
    if (!bag && takenIds.includes(values.id.trim())) found.id = t('products.idTaken');
    if (!result.ok || Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    setPending(result.data);
  };

  return (
    <>
      <Modal
        open={!pending}
        onClose={onClose}
        title={bag ? t('products.editTitle', { id: bag.id }) : t('products.addTitle')}
        testId="product-dialog"
        footer={
          <div className="button-row">
            <button type="button" className="button" onClick={onClose}>
              {t('products.cancel')}
            </button>
            <button
              type="submit"
              form="product-form"
              className="button button--primary"
              disabled={busy}
              data-testid="product-save"
            >
              {t('products.save')}
            </button>
          </div>
        }
      >
        <form id="product-form" className="product-form" onSubmit={onSubmit} noValidate>
          {serverError !== null && serverError !== undefined && <Alert>{errorText(serverError)}</Alert>}
          <Field
            name="id"
            label={t('products.id')}
            hint={t('products.idHint')}
            value={values.id}
            onChange={(id) => set({ id })}
            error={shownErrors.id}
            maxLength={40}
            required
          />
          <Field
            name="credits"
            label={t('products.credits')}
            inputMode="numeric"
            value={values.credits}
            onChange={(credits) => set({ credits })}
            error={shownErrors.credits}
            required
          />
          <Field
            name="price"
            label={t('products.price')}
            hint={t('products.priceHint')}
            inputMode="text"
            value={values.price}
            onChange={(price) => set({ price })}
            error={shownErrors.price ?? shownErrors.priceCents}
            required
          />
          <Field
            name="eticketid"
            label={t('products.eticketid')}
            value={values.eticketid}
            onChange={(eticketid) => set({ eticketid })}
            error={shownErrors.eticketid}
            maxLength={40}
            required
          />
          <Field
            name="position"
            label={t('products.position')}
            inputMode="numeric"
            value={values.position}
            onChange={(p) => set({ position: p })}
            error={shownErrors.position}
          />
          <label className="checkbox">
            <input
              type="checkbox"
              checked={values.active}
              onChange={(event) => set({ active: event.target.checked })}
              data-testid="field-active"
            />{' '}
            {t('products.active')}
          </label>
        </form>
      </Modal>
      <ConfirmModal
        open={pending !== null}
        title={t('products.confirmTitle')}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending) onSave(pending);
        }}
      >
        {pending && (
          <>
            <p>
              {t('products.confirmBody', {
                id: pending.id,
                credits: format.count(pending.credits),
                price: format.money(pending.priceCents),
                eticketid: pending.eticketid,
              })}
            </p>
            {!pending.active && <p>{t('products.confirmInactive')}</p>}
            {serverError !== null && serverError !== undefined && <Alert>{errorText(serverError)}</Alert>}
          </>
        )}
      </ConfirmModal>
    </>
  );
}

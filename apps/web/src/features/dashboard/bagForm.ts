import { adminCreditBagRequestSchema, type CreditBag, type Language } from '@fanverse/contract';
import { type FieldErrors, validateWith } from '../../ui/formErrors.ts';

/** The text of the credit bag form: the price is typed in dollars, the server takes cents. */
export interface BagFormValues {
  id: string;
  credits: string;
  price: string;
  eticketid: string;
  position: string;
  active: boolean;
}

export type BagInput = ReturnType<typeof adminCreditBagRequestSchema.parse>;

export function bagFormValues(bag: CreditBag | null, position: number): BagFormValues {
  return {
    id: bag?.id ?? '',
    credits: bag ? String(bag.credits) : '',
    price: bag ? (bag.priceCents / 100).toFixed(2) : '',
    eticketid: bag?.eticketid ?? '',
    position: String(position),
    active: true,
  };
}

/** Dollars as typed ("25", "25.5", "25,50") to integer cents, or null when it is not a price. */
export function priceToCents(text: string): number | null {
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * Validates the form with the contract schema the server uses; errors are keyed by the form's
 * field names (priceCents is shown on price). `priceText` is the message for an unreadable price.
 */
export function validateBag(
  values: BagFormValues,
  language: Language,
  priceText: string,
): { ok: true; data: BagInput } | { ok: false; errors: FieldErrors } {
  const cents = priceToCents(values.price);
  const result = validateWith(
    adminCreditBagRequestSchema,
    {
      id: values.id,
      credits: values.credits.trim() === '' ? undefined : values.credits,
      priceCents: cents ?? undefined,
      eticketid: values.eticketid,
      position: values.position.trim() === '' ? undefined : values.position,
      active: values.active,
    },
    language,
  );
  const errors: FieldErrors = result.ok ? {} : { ...result.errors };
  if (errors.priceCents || cents === null) {
    errors.price = priceText;
    delete errors.priceCents;
  }
  if (result.ok && Object.keys(errors).length === 0) return result;
  return { ok: false, errors };
}

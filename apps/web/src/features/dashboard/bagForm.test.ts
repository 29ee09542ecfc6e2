import { describe, expect, it } from 'vitest';
import { bagFormValues, priceToCents, validateBag } from './bagForm.ts';

describe('credit bag form', () => {
  it('reads typed dollars as integer cents', () => {
    expect(priceToCents('25')).toBe(2500);
    expect(priceToCents('25.5')).toBe(2550);
    expect(priceToCents('25,05')).toBe(2505);
    expect(priceToCents('2.555')).toBeNull();
    expect(priceToCents('-3')).toBeNull();
    expect(priceToCents('')).toBeNull();
  });

  it('turns a valid form into the contract request', () => {
    const values = {
      ...bagFormValues({ id: 'bag-250', credits: 250, priceCents: 2500, eticketid: 't:1' }, 1),
    };
    const result = validateBag({ ...values, price: '24.99' }, 'en', 'bad price');
    expect(result).toEqual({
      ok: true,
      data: { id: 'bag-250', credits: 250, priceCents: 2499, eticketid: 't:1', active: true, position: 1 },
    });
  });

  it('puts price errors on the price field, below the minimum of 50 cents too', () => {
    const values = bagFormValues(null, 4);
    const result = validateBag({ ...values, id: 'Bad Id', credits: '0', price: '0.10' }, 'en', 'bad price');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.price).toBe('bad price');
    expect(result.errors.priceCents).toBeUndefined();
    expect(Object.keys(result.errors).sort()).toEqual(['credits', 'eticketid', 'id', 'price']);
  });
});

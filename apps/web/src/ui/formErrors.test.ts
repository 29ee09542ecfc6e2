import { signupRequestSchema } from '@fanverse/contract';
import { describe, expect, it } from 'vitest';
import { validateWith } from './formErrors.ts';

const valid = {
  username: 'alice2024',
  name: 'Alice',
  email: 'alice@example.com',
  password: 'long enough',
  birthdate: '1990-05-01',
  acceptTerms: true,
};

describe('validateWith (contract schema, localized messages)', () => {
  it('accepts a valid sign-up', () => {
    expect(validateWith(signupRequestSchema, valid, 'en')).toMatchObject({ ok: true });
  });

  it('marks each failing field with the FIELD_MESSAGES text of the language', () => {
    const result = validateWith(
      signupRequestSchema,
      { ...valid, username: 'ab c', acceptTerms: false },
      'es',
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        username: 'El nombre de usuario debe tener entre 6 y 20 caracteres.',
        acceptTerms: 'Debes aceptar los términos para continuar.',
      },
    });
  });

  it('refuses a date of birth under 18 years', () => {
    const result = validateWith(signupRequestSchema, { ...valid, birthdate: '2020-01-01' }, 'en');
    expect(result).toEqual({ ok: false, errors: { birthdate: 'You must be at least 18 years old.' } });
  });
});

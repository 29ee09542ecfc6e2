import type { Language } from '@fanverse/contract';
import { useCallback, useState } from 'react';
import { errorText } from '../app/api.ts';
import { type FieldErrors, serverFieldErrors, validateWith } from './formErrors.ts';

type Schema<T> = Parameters<typeof validateWith<T>>[0];

/**
 * Values and errors of a form, one mechanism for every form: changing a field clears that field's
 * message AND the form-level message of the last failed submit, so nothing stale ("username already
 * taken") stays on screen after the user edited what it was about. A failed submit with field
 * messages shows them at the fields; without, it shows one form-level message.
 */
export function useFormFields<V extends object>(initial: V | (() => V)) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const clear = useCallback((key: string) => {
    setErrors((current) => {
      if (!(key in current)) return current;
      const { [key]: _, ...rest } = current;
      return rest;
    });
    setFormError(null);
  }, []);

  const set = useCallback(
    <K extends keyof V>(key: K) =>
      (value: V[K]) => {
        setValues((v) => ({ ...v, [key]: value }));
        clear(String(key));
      },
    [clear],
  );

  /** A failed submit: field messages at their fields, otherwise one message for the form. */
  const fail = useCallback((error: unknown) => {
    const fields = serverFieldErrors(error);
    setErrors(fields);
    setFormError(Object.keys(fields).length > 0 ? null : errorText(error));
  }, []);

  /** Checks the values with the contract schema; on failure shows the messages and answers null. */
  const validate = useCallback(<T>(schema: Schema<T>, body: unknown, language: Language): T | null => {
    const result = validateWith(schema, body, language);
    if (result.ok) {
      setFormError(null);
      return result.data;
    }
    setErrors(result.errors);
    return null;
  }, []);

  return { values, setValues, errors, setErrors, formError, set, clear, fail, validate };
}

import { FIELD_MESSAGES, isFieldMessageKey, type Language } from '@fanverse/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  type DefaultValues,
  type FieldError,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  FormProvider,
  type Resolver,
  type UseFormReturn,
  useController,
  useForm,
  useFormContext,
} from 'react-hook-form';
import { ApiError, errorText } from '../app/api.ts';
import { useSession } from '../app/session.store.ts';
import { Alert } from './Feedback.tsx';
import { FieldFrame, type FieldFrameProps } from './Field.tsx';

/**
 * The forms of the app: react-hook-form with the contract's zod schema as resolver (the server's
 * rules), messages in the user's language, server field errors at their fields, a form-level
 * message otherwise, errors cleared as the field changes, focus on the first failing field.
 * See docs/ARCHITECTURE.md "Forms".
 */

type ZodSchema = Parameters<typeof zodResolver>[0];
type Input<S> = S extends { _zod: { input: infer I } } ? (I extends FieldValues ? I : never) : never;
type Output<S> = S extends { _zod: { output: infer O } } ? O : never;

/** A zod issue's message is a FIELD_MESSAGES key (contract/validation.ts); anything else is "invalid". */
export function fieldMessage(message: string | undefined, language: Language): string {
  return message && isFieldMessageKey(message)
    ? FIELD_MESSAGES[message][language]
    : FIELD_MESSAGES.invalid[language];
}

function localize(errors: FieldErrors, language: Language): FieldErrors {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    const error = value as FieldError & Record<string, unknown>;
    out[key] =
      'type' in error && typeof error.type === 'string'
        ? { ...error, message: fieldMessage(error.message, language) }
        : localize(error as FieldErrors, language);
  }
  return out as FieldErrors;
}

/**
 * A form checked with a contract schema. `onChange` re-validation after the first submit is what
 * clears a message (local or from the server) as soon as the field holds an acceptable value.
 */
export function useZodForm<S extends ZodSchema>(schema: S, defaultValues: DefaultValues<Input<S>>) {
  return useZodFormOf<Input<S>, S>(schema, defaultValues);
}

/**
 * A form whose values are not the request itself: `prepare` turns them into the request the
 * schema checks (e.g. only the changed fields); messages still land on the fields of the same name.
 */
export function useZodFormOf<V extends FieldValues, S extends ZodSchema>(
  schema: S,
  defaultValues: DefaultValues<V>,
  prepare: (values: V) => unknown = (values) => values,
  /** Rules of the form beyond the request (e.g. "repeat the password"): localized messages by field. */
  check?: (values: V) => Record<string, string | undefined>,
) {
  const language = useSession((s) => s.language);
  const languageRef = useRef(language);
  languageRef.current = language;
  const base = zodResolver(schema as never) as unknown as Resolver<V, unknown, Output<S>>;
  const resolver: Resolver<V, unknown, Output<S>> = async (values, context, options) => {
    const result = await base(prepare(values) as V, context, options);
    const errors: Record<string, unknown> = localize(result.errors, languageRef.current);
    for (const [name, message] of Object.entries(check?.(values) ?? {})) {
      if (message && !errors[name]) errors[name] = { type: 'check', message };
    }
    return (Object.keys(errors).length > 0 ? { values: {}, errors } : result) as typeof result;
  };
  return useForm<V, unknown, Output<S>>({
    resolver,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    shouldFocusError: true,
  });
}

const ROOT = 'root.server' as const;

/**
 * Shows a failed request on the form: the server's (already localized) field messages at their
 * fields, anything else as one form-level message. Answers whether a field got a message.
 */
export function showServerError<V extends FieldValues>(
  form: UseFormReturn<V, unknown, never>,
  error: unknown,
) {
  const fields = error instanceof ApiError ? error.fields : {};
  const known = form.getValues() as Record<string, unknown>;
  let atField = false;
  const rest: string[] = [];
  for (const [name, message] of Object.entries(fields)) {
    if (name in known) {
      form.setError(name as FieldPath<V>, { type: 'server', message });
      atField = true;
    } else rest.push(message);
  }
  if (!atField) form.setError(ROOT, { type: 'server', message: rest[0] ?? errorText(error) });
  return atField;
}

interface FormProps<V extends FieldValues, O> {
  form: UseFormReturn<V, unknown, O>;
  /** Sends the checked values; a rejection is shown on the form (see showServerError). */
  onSubmit: (values: O) => Promise<unknown> | unknown;
  children: ReactNode;
  className?: string;
  testId?: string;
  'data-kind'?: string;
}

/** A `<form>` bound to a useZodForm: submit, server errors, focus and the form-level message. */
export function Form<V extends FieldValues, O>({
  form,
  onSubmit,
  children,
  className = 'form card',
  testId,
  ...rest
}: FormProps<V, O>) {
  const ref = useRef<HTMLFormElement>(null);
  const [failed, setFailed] = useState(0);
  // Any edit makes the last form-level message stale (its field messages clear by re-validation).
  useEffect(() => {
    const { unsubscribe } = form.watch(() => {
      if (form.getFieldState(ROOT as FieldPath<V>).error) form.clearErrors('root');
    });
    return unsubscribe;
  }, [form]);
  // Server errors arrive after the resolver's focus: move focus to the first failing field then.
  useEffect(() => {
    if (failed === 0) return;
    const first = ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.focus();
  }, [failed]);
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      showServerError(form as UseFormReturn<V, unknown, never>, error);
      setFailed((n) => n + 1);
    }
  });
  return (
    <FormProvider {...form}>
      <form ref={ref} className={className} onSubmit={submit} noValidate data-testid={testId} {...rest}>
        {children}
      </form>
    </FormProvider>
  );
}

/** The form-level message of the last failed submit. */
export function FormError() {
  const { formState } = useFormContext();
  const message = formState.errors.root?.server?.message;
  return message ? <Alert testId="form-error">{message}</Alert> : null;
}

type Common = Omit<FieldFrameProps, 'error' | 'children' | 'id'> & { name: string };

interface TextFieldProps extends Common {
  kind?: 'input' | 'textarea';
  type?: string;
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'email' | 'decimal';
  maxLength?: number;
  rows?: number;
  autoFocus?: boolean;
}

/** A labelled text input or textarea of the enclosing Form. */
export function TextField({
  name,
  kind = 'input',
  type = 'text',
  rows = 4,
  autoFocus,
  ...props
}: TextFieldProps) {
  const { field, fieldState } = useController({ name });
  return (
    <FieldFrame {...props} name={name} error={fieldState.error?.message}>
      {(aria) => {
        const common = {
          ...aria,
          name,
          ref: field.ref,
          value: (field.value as string | undefined) ?? '',
          onChange: (event: { target: { value: string } }) => field.onChange(event.target.value),
          onBlur: field.onBlur,
          placeholder: props.hint,
          maxLength: props.maxLength,
          required: props.required,
        };
        return kind === 'textarea' ? (
          <textarea {...common} rows={rows} />
        ) : (
          <input
            {...common}
            type={type}
            autoComplete={props.autoComplete}
            inputMode={props.inputMode}
            // biome-ignore lint/a11y/noAutofocus: first field of a single-purpose form page.
            autoFocus={autoFocus}
          />
        );
      }}
    </FieldFrame>
  );
}

/** A labelled select of the enclosing Form. */
export function SelectField({ name, children, ...props }: Common & { children: ReactNode }) {
  const { field, fieldState } = useController({ name });
  return (
    <FieldFrame {...props} name={name} error={fieldState.error?.message}>
      {(aria) => (
        <select
          {...aria}
          name={name}
          ref={field.ref}
          value={(field.value as string | undefined) ?? ''}
          onChange={(event) => field.onChange(event.target.value)}
          onBlur={field.onBlur}
          required={props.required}
        >
          {children}
        </select>
      )}
    </FieldFrame>
  );
}

/** A checkbox of the enclosing Form. */
export function CheckField({ name, label, hint }: { name: string; label: ReactNode; hint?: string }) {
  const { field, fieldState } = useController({ name });
  return (
    <FieldFrame name={name} label={label} hint={hint} error={fieldState.error?.message} checkbox>
      {(aria) => (
        <input
          {...aria}
          type="checkbox"
          name={name}
          ref={field.ref}
          checked={Boolean(field.value)}
          onChange={(event) => field.onChange(event.target.checked)}
          onBlur={field.onBlur}
        />
      )}
    </FieldFrame>
  );
}

/**
 * A control that draws its own frame (CountryField, DateField...) bound to the enclosing Form:
 * it gets the field's name, value, onChange and message.
 */
export function ControlField<T>({
  name,
  render,
}: {
  name: string;
  render: (control: { name: string; value: T; onChange: (value: T) => void; error?: string }) => ReactNode;
}) {
  const { field, fieldState } = useController({ name });
  return (
    <>
      {render({ name, value: field.value as T, onChange: field.onChange, error: fieldState.error?.message })}
    </>
  );
}

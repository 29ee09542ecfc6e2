import { type ChangeEvent, type ReactNode, useId } from 'react';

interface BaseProps {
  name: string;
  label: string;
  /** Placeholder text; the tooltip of a failing field repeats it (spec §5). */
  hint?: string;
  error?: string;
  required?: boolean;
}

interface InputProps extends BaseProps {
  kind?: 'input';
  type?: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'email';
  maxLength?: number;
  autoFocus?: boolean;
}
interface TextareaProps extends BaseProps {
  kind: 'textarea';
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
}
interface SelectProps extends BaseProps {
  kind: 'select';
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}

export type FieldProps = InputProps | TextareaProps | SelectProps;

export interface FieldFrameProps {
  name: string;
  label: ReactNode;
  /** Placeholder text; the tooltip of a failing field repeats it (spec §5). */
  hint?: string;
  error?: string;
  required?: boolean;
  checkbox?: boolean;
  /** The control, given its id and the aria attributes that tie it to label and message. */
  children: (aria: FieldAria) => ReactNode;
}

export interface FieldAria {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'data-testid': string;
}

/**
 * Label, control and message of one field, for every form (ui/Form.tsx and the controlled Field):
 * a failing control is aria-invalid and described by the tooltip with hint and message.
 */
export function FieldFrame({ name, label, hint, error, required, checkbox, children }: FieldFrameProps) {
  const id = useId();
  const tipId = `${id}-tip`;
  const aria: FieldAria = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? tipId : undefined,
    'data-testid': `field-${name}`,
  };
  const labelEl = (
    <label htmlFor={id}>
      {label}
      {required && <span aria-hidden="true"> *</span>}
    </label>
  );
  return (
    <div className={`field${checkbox ? ' field--checkbox' : ''}${error ? ' field--invalid' : ''}`}>
      {checkbox ? (
        <>
          {children(aria)}
          {labelEl}
        </>
      ) : (
        <>
          {labelEl}
          {children(aria)}
        </>
      )}
      {error && <FieldTooltip id={tipId} name={name} hint={hint} error={error} />}
    </div>
  );
}

/** A labelled controlled field, for state that is not a form of its own (see ui/Form.tsx for forms). */
export function Field(props: FieldProps) {
  const { name, label, hint, error, required } = props;
  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    props.onChange(event.target.value);
  return (
    <FieldFrame name={name} label={label} hint={hint} error={error} required={required}>
      {(aria) => {
        const common = { ...aria, name, required };
        if (props.kind === 'textarea')
          return (
            <textarea
              {...common}
              value={props.value}
              onChange={onChange}
              placeholder={hint}
              maxLength={props.maxLength}
              rows={4}
            />
          );
        if (props.kind === 'select')
          return (
            <select {...common} value={props.value} onChange={onChange}>
              {props.children}
            </select>
          );
        return (
          <input
            {...common}
            type={props.type ?? 'text'}
            value={props.value}
            onChange={onChange}
            placeholder={hint}
            autoComplete={props.autoComplete}
            inputMode={props.inputMode}
            maxLength={props.maxLength}
            // biome-ignore lint/a11y/noAutofocus: first field of a single-purpose form page.
            autoFocus={props.autoFocus}
          />
        );
      }}
    </FieldFrame>
  );
}

export function FieldTooltip({
  id,
  name,
  hint,
  error,
}: {
  id: string;
  name: string;
  hint?: string;
  error: string;
}) {
  return (
    <div className="field__tooltip" role="tooltip" id={id} data-testid={`field-error-${name}`}>
      {hint && <span className="field__tooltip-hint">{hint}</span>}
      <span>{error}</span>
    </div>
  );
}

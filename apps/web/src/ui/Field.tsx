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

/** A labelled form field; a failing one is marked and shows a tooltip with hint and message. */
export function Field(props: FieldProps) {
  const id = useId();
  const tipId = `${id}-tip`;
  const { name, label, hint, error, required } = props;
  const common = {
    id,
    name,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? tipId : undefined,
    'data-testid': `field-${name}`,
  };
  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    props.onChange(event.target.value);
  let control: ReactNode;
  if (props.kind === 'textarea') {
    control = (
      <textarea
        {...common}
        value={props.value}
        onChange={onChange}
        placeholder={hint}
        maxLength={props.maxLength}
        rows={4}
      />
    );
  } else if (props.kind === 'select') {
    control = (
      <select {...common} value={props.value} onChange={onChange}>
        {props.children}
      </select>
    );
  } else {
    control = (
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
  }
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {control}
      {error && <FieldTooltip id={tipId} name={name} hint={hint} error={error} />}
    </div>
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

/** A checkbox with the same failing-field treatment. */
export function CheckboxField({
  name,
  label,
  checked,
  onChange,
  error,
  hint,
}: {
  name: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
  hint?: string;
}) {
  const id = useId();
  const tipId = `${id}-tip`;
  return (
    <div className={`field field--checkbox${error ? ' field--invalid' : ''}`}>
      <input
        id={id}
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? tipId : undefined}
        data-testid={`field-${name}`}
      />
      <label htmlFor={id}>{label}</label>
      {error && <FieldTooltip id={tipId} name={name} hint={hint} error={error} />}
    </div>
  );
}

/** A whole-number setting of the dashboard (commission percent, holding days) with its label. */
export function NumberSetting({
  id,
  label,
  value,
  min,
  max,
  invalid,
  describedBy,
  testId,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  min: number;
  max: number;
  invalid: boolean;
  describedBy: string;
  testId: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className={`field${invalid ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        data-testid={testId}
      />
    </div>
  );
}

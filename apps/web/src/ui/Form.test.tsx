// @vitest-environment jsdom
import { applyRequestSchema } from '@fanverse/contract';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlField, Form, useZodFormOf } from './Form.tsx';

afterEach(cleanup);

type Values = { documentType: string; front: File | null };

function Step({
  onSubmit = () => undefined,
}: {
  onSubmit?: (form: ReturnType<typeof useZodFormOf<Values, typeof applyRequestSchema>>) => unknown;
}) {
  const form = useZodFormOf<Values, typeof applyRequestSchema>(
    applyRequestSchema,
    { documentType: '', front: null },
    (values) => ({ step: '3', documentType: values.documentType || undefined }),
    (values) => ({ front: values.front ? undefined : 'missing' }),
  );
  return (
    <Form form={form} onSubmit={() => onSubmit(form)} testId="f">
      <ControlField<string>
        name="documentType"
        render={({ value, onChange, error }) => (
          <div>
            <input
              type="radio"
              aria-label="passport"
              checked={value === 'passport'}
              onChange={() => onChange('passport')}
            />
            {error && <span data-testid="type-error">{error}</span>}
          </div>
        )}
      />
      <ControlField<File | null>
        name="front"
        render={({ onChange, error }) => (
          <div>
            <input
              type="file"
              aria-label="front"
              onChange={(e) => {
                onChange(e.target.files?.[0] ?? null);
                void form.trigger('front');
              }}
            />
            {error && <span data-testid="front-error">{error}</span>}
          </div>
        )}
      />
      <button type="submit">send</button>
    </Form>
  );
}

describe('a form whose values are prepared into the request, with controls of its own', () => {
  it('clears a control message when the control gets a value after a failed submit', async () => {
    render(<Step />);
    await act(async () => fireEvent.click(screen.getByText('send')));
    expect(screen.getByTestId('type-error')).toBeTruthy();
    expect(screen.getByTestId('front-error')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByLabelText('passport')));
    expect(screen.queryByTestId('type-error')).toBeNull();
    const file = new File(['x'], 'a.jpg', { type: 'image/jpeg' });
    await act(async () => fireEvent.change(screen.getByLabelText('front'), { target: { files: [file] } }));
    expect(screen.queryByTestId('front-error')).toBeNull();
    expect(screen.queryByTestId('type-error')).toBeNull();
  });

  it('keeps the values after a submit whose handler refused a field, and submits them next time', async () => {
    const sent: unknown[] = [];
    let first = true;
    render(
      <Step
        onSubmit={(form) => {
          if (first) {
            first = false;
            form.setError('front', { type: 'check', message: 'twice' });
            return;
          }
          sent.push(form.getValues());
        }}
      />,
    );
    await act(async () => fireEvent.click(screen.getByLabelText('passport')));
    const file = new File(['x'], 'a.jpg', { type: 'image/jpeg' });
    await act(async () => fireEvent.change(screen.getByLabelText('front'), { target: { files: [file] } }));
    await act(async () => fireEvent.click(screen.getByText('send')));
    expect(screen.getByTestId('front-error').textContent).toBe('twice');
    const other = new File(['y'], 'b.jpg', { type: 'image/jpeg' });
    await act(async () => fireEvent.change(screen.getByLabelText('front'), { target: { files: [other] } }));
    expect(screen.queryByTestId('front-error')).toBeNull();
    await act(async () => fireEvent.click(screen.getByText('send')));
    expect(screen.queryByTestId('type-error')).toBeNull();
    expect(sent).toHaveLength(1);
  });
});

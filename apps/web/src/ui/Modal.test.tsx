// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FirstRenderContext } from '../app/firstRender.tsx';
import i18n from '../app/i18n.ts';
import { Modal } from './Modal.tsx';

function ui(open: boolean, onClosed: () => void) {
  return (
    <I18nextProvider i18n={i18n}>
      <button type="button">opener</button>
      <Modal open={open} onClose={() => undefined} onClosed={onClosed} title="Hello" testId="m">
        <button type="button">inside</button>
      </Modal>
    </I18nextProvider>
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Modal', () => {
  it('is a labelled modal dialog that takes the focus', () => {
    const onClosed = vi.fn();
    render(ui(true, onClosed));
    const dialog = screen.getByRole('dialog', { name: 'Hello' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(dialog.style.transitionDuration).toBe('250ms');
  });

  it('calls onClosed once, after the 250 ms close animation', () => {
    vi.useFakeTimers();
    const onClosed = vi.fn();
    const { rerender } = render(ui(true, onClosed));
    rerender(ui(false, onClosed));
    act(() => vi.advanceTimersByTime(249));
    expect(onClosed).not.toHaveBeenCalled();
    expect(screen.queryByTestId('m')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('m')).toBeNull();
  });

  it('a modal without a close (the age advice) is a described alert dialog that keeps the focus', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <button type="button">outside</button>
        <Modal open title="Adults only" testId="blocking">
          <p>Are you 18?</p>
          <button type="button">Enter</button>
        </Modal>
      </I18nextProvider>,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Adults only' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent).toContain(
      'Are you 18?',
    );
    act(() => screen.getByText('outside').focus());
    expect(document.activeElement?.textContent).toBe('Enter');
  });

  it("takes the place of the server's copy outside #root once the markup is hydrated (ADR 0048)", async () => {
    // The server's first view: #root inert (nothing of the modal in it), the modal in #fv-outside.
    document.body.innerHTML =
      '<div id="root" inert><p>page</p></div><div id="fv-outside"><div role="alertdialog">server copy</div></div>';
    const container = document.getElementById('root') as HTMLElement;
    const root = await act(async () =>
      hydrateRoot(
        container,
        <I18nextProvider i18n={i18n}>
          <FirstRenderContext value={{ now: 0, ageAccepted: false }}>
            <p>page</p>
            <Modal open title="Adults only" testId="blocking">
              <button type="button">Enter</button>
            </Modal>
          </FirstRenderContext>
        </I18nextProvider>,
        { onRecoverableError: (error) => expect.fail(`hydration mismatch: ${String(error)}`) },
      ),
    );
    // One notice, the app's, in document.body: shown at once (no fade in), with the focus.
    expect(document.getElementById('fv-outside')).toBeNull();
    expect(screen.queryByText('server copy')).toBeNull();
    const dialog = screen.getByRole('alertdialog', { name: 'Adults only' });
    expect(dialog.parentElement?.parentElement).toBe(document.body);
    expect(dialog.className).toContain('is-open');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(container.innerHTML).toBe('<p>page</p>');
    expect(container.inert).toBe(true);
    act(() => root.unmount());
  });
});

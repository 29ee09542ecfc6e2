// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../app/i18n.ts';
import { useUi } from '../app/ui.store.ts';
import { NotificationPopups } from './Popups.tsx';

function show() {
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <NotificationPopups />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  useUi.getState().closeAllNotifications();
});

describe('live notification pop-ups', () => {
  it('closes one, then all at once', () => {
    act(() => {
      for (const id of ['a', 'b', 'c']) {
        useUi
          .getState()
          .pushNotification({ id, message: `New comment ${id}`, image: null, link: `/post/${id}` });
      }
    });
    show();
    expect(screen.getAllByTestId('notification-popup')).toHaveLength(3);
    fireEvent.click(screen.getAllByTestId('notification-close')[0]!);
    expect(screen.getAllByTestId('notification-popup')).toHaveLength(2);
    fireEvent.click(screen.getByTestId('notifications-close-all'));
    expect(screen.queryByTestId('notification-popups')).toBeNull();
  });

  it('links a notification to the page it is about', () => {
    act(() => useUi.getState().pushNotification({ id: 'x', message: 'Liked', image: null, link: '/post/x' }));
    show();
    expect(screen.getByRole('link', { name: 'Liked' }).getAttribute('href')).toBe('/post/x');
  });
});

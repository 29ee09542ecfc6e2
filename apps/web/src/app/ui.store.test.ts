import { beforeEach, describe, expect, it } from 'vitest';
import { useUi } from './ui.store.ts';

const popup = (id: string) => ({ id, message: `message ${id}`, image: null, link: null });

describe('live notification pop-ups', () => {
  beforeEach(() => useUi.getState().closeAllNotifications());

  it('stacks the newest first and closes one', () => {
    const ui = useUi.getState();
    ui.pushNotification(popup('a'));
    ui.pushNotification(popup('b'));
    expect(useUi.getState().notifications.map((n) => n.id)).toEqual(['b', 'a']);
    useUi.getState().closeNotification('b');
    expect(useUi.getState().notifications.map((n) => n.id)).toEqual(['a']);
  });

  it('closes all at once', () => {
    useUi.getState().pushNotification(popup('a'));
    useUi.getState().pushNotification(popup('b'));
    useUi.getState().closeAllNotifications();
    expect(useUi.getState().notifications).toEqual([]);
  });

  it('does not show the same notification twice', () => {
    useUi.getState().pushNotification(popup('a'));
    useUi.getState().pushNotification(popup('a'));
    expect(useUi.getState().notifications).toHaveLength(1);
  });
});

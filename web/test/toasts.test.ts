import { notifications, notificationsStore } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import { showReplacingToast } from '../src/lib/toasts';

const all = () => {
  const state = notificationsStore.getState();
  return [...state.notifications, ...state.queue].map((toast) => `${toast.title}: ${toast.message}`);
};

describe('admin answers in runs', () => {
  beforeEach(() => notifications.clean());

  it('keep at most one toast per kind: the newest, in the place of the old', () => {
    showReplacingToast('Student added', { title: 'Student added', message: 'Ava' });
    for (const car of ['Car 1', 'Car 2', 'Car 3', 'Car 4']) {
      showReplacingToast('Vehicle added', { title: 'Vehicle added', message: car });
    }
    expect(all()).toEqual(['Student added: Ava', 'Vehicle added: Car 4']);
    showReplacingToast('Student added', { title: 'Student added', message: 'Ben' });
    expect(all()).toEqual(['Student added: Ben', 'Vehicle added: Car 4']);
  });
});

// @vitest-environment jsdom
import type { VaultItem } from '@fanverse/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '../../app/i18n.ts';
import { VaultPicker } from './VaultPicker.tsx';

/** A vault of 30 processed files, 24 a page (as the server pages it), searchable by name. */
const FILES: VaultItem[] = Array.from({ length: 30 }, (_, i) => ({
  _id: `file-${i}`,
  name: `photo-${i}.jpg`,
  size: 1000,
  date: new Date(2026, 0, 30 - i).toISOString(),
  media: {
    _id: `file-${i}`,
    type: 'image',
    status: 'ready',
    src: null,
    thumb: null,
    poster: null,
    mediaPoster: null,
    location: null,
    blur: null,
    locked: false,
    width: 64,
    height: 64,
    info: null,
    preview: 0,
    captions: [],
  },
  uses: { posts: 0, messages: 0, welcome: false, gallery: 0 },
  used: false,
  folder: null,
  earned: { sales: 0, credits: 0, earnings: 0 },
}));

const calls: Record<string, unknown>[] = [];
vi.mock('../../app/api.ts', () => ({
  errorText: () => 'error',
  api: async (name: string, query: Record<string, unknown> = {}) => {
    if (name === 'vault.folders') return { folders: [], unfiled: 0 };
    calls.push(query);
    const q = String(query.q ?? '');
    const matching = FILES.filter((f) => f.name.includes(q));
    const page = Number(query.page ?? 1);
    const items = matching.slice((page - 1) * 24, page * 24);
    return {
      items,
      statistics: { page, limit: 24, total: matching.length, hasMore: matching.length > page * 24 },
    };
  },
}));

beforeAll(async () => {
  await i18n.loadNamespaces(['vault', 'common']);
});

async function show(onPick = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <VaultPicker onPick={onPick} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByTestId('vault-picker-open'));
  return onPick;
}

afterEach(() => {
  cleanup();
  calls.length = 0;
});

describe('the vault picker', () => {
  it('loads more than the first 24 files, keeps picks across pages, and asks only for ready files', async () => {
    const onPick = await show();
    await waitFor(() => expect(screen.getAllByTestId('vault-pick')).toHaveLength(24));
    fireEvent.click(screen.getAllByTestId('vault-pick')[0]!);
    fireEvent.click(screen.getByTestId('vault-picker-more'));
    await waitFor(() => expect(screen.getAllByTestId('vault-pick')).toHaveLength(30));
    expect(screen.queryByTestId('vault-picker-more')).toBeNull();
    fireEvent.click(screen.getAllByTestId('vault-pick')[29]!);
    fireEvent.click(screen.getByTestId('vault-picker-attach'));
    expect(onPick.mock.calls[0]?.[0].map((f: VaultItem) => f._id)).toEqual(['file-0', 'file-29']);
    expect(calls.every((q) => q.status === 'ready')).toBe(true);
    expect(calls.map((q) => q.page)).toEqual([1, 2]);
  });

  it('searches the whole vault with its filters, from the first page again', async () => {
    await show();
    await waitFor(() => expect(screen.getAllByTestId('vault-pick')).toHaveLength(24));
    fireEvent.change(screen.getByTestId('vault-search'), { target: { value: 'photo-2' } });
    // photo-2 and photo-20 … photo-29: one of them beyond the first page of the whole vault.
    await waitFor(() => expect(screen.getAllByTestId('vault-pick')).toHaveLength(11));
    expect(calls.at(-1)).toMatchObject({ q: 'photo-2', page: 1, status: 'ready' });
    expect(screen.getByText('photo-29.jpg')).toBeTruthy();
  });
});

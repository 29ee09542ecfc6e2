// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../app/i18n.ts';
import { feed, post } from '../../test/fixtures.ts';

/** Each card shows its author once per render: counting the author's renders counts the cards'. */
const authorRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock('./Author.tsx', async (importOriginal) => {
  const original = await importOriginal<typeof import('./Author.tsx')>();
  return {
    ...original,
    Author: (props: Parameters<typeof original.Author>[0]) => {
      authorRenders.count += 1;
      return original.Author(props);
    },
  };
});
const { PostFeed } = await import('./PostFeed.tsx');

afterEach(cleanup);

describe('a feed of cards', () => {
  it('renders each card once, while the feed grows after its first cards (each card is memoized, none copies its post into state)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
    const posts = Array.from({ length: 9 }, (_, i) => post(`post-${i}`, { likes: 2 }));
    client.setQueryData(['posts.list', {}], { pages: [feed(posts)], pageParams: [1] });
    const onData = vi.fn();
    authorRenders.count = 0;
    const router = createMemoryRouter([{ path: '/', element: <PostFeed query={{}} onData={onData} /> }]);
    await act(async () => {
      render(
        <QueryClientProvider client={client}>
          <I18nextProvider i18n={i18n}>
            <RouterProvider router={router} />
          </I18nextProvider>
        </QueryClientProvider>,
      );
    });
    expect(screen.getAllByTestId('post-card')).toHaveLength(9);
    expect(onData).toHaveBeenCalled();
    // The first four with the data, the other five right after: nine renders, none again.
    expect(authorRenders.count).toBe(9);
    expect(screen.getAllByTestId('post-like-count')[0]?.textContent).toContain('2');

    // An overlay opened and closed over the page (a URL change): the cards do not render again.
    await act(async () => {
      await router.navigate('/?comments=post-0', { state: { overlay: true } });
    });
    await act(async () => {
      await router.navigate(-1);
    });
    expect(router.state.location.search).toBe('');
    expect(authorRenders.count).toBe(9);
  });
});

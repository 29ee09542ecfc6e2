/**
 * Loading hints of a feed picture: the first card's (likely the page's largest paint, LCP) at once
 * and with high priority, the others lazily, when scrolled near.
 */
export function imageLoading(priority: boolean) {
  return priority ? ({ loading: 'eager', fetchPriority: 'high' } as const) : ({ loading: 'lazy' } as const);
}

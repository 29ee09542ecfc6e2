import type { Feed } from '../home/views.ts';
import { CreditsView } from './CreditsView.tsx';
import { CreatorStatisticsView } from './EarningsView.tsx';
import { CreditsHistoryView, TransactionsView } from './HistoryViews.tsx';
import { SubscribersView } from './SubscribersView.tsx';
import { SubscriptionsView } from './SubscriptionsView.tsx';

/** The home views of money (spec §2 feeds), or null for a feed that is not about money. */
export function MoneyFeedView({ feed }: { feed: Feed }) {
  switch (feed) {
    case 'my-credits':
      return <CreditsView />;
    case 'my-credits-history':
      return <CreditsHistoryView />;
    case 'my-transactions':
      return <TransactionsView />;
    case 'my-subscriptions':
      return <SubscriptionsView />;
    case 'my-subscribers':
      return <SubscribersView />;
    case 'creator-statistics':
      return <CreatorStatisticsView />;
    default:
      return null;
  }
}

import { ApplyFlow } from '../apply/ApplyFlow.tsx';

/** /user/creator: the four-step creator application (spec §2). */
export default function CreatorApplyPage() {
  return <ApplyFlow entry="creator" />;
}

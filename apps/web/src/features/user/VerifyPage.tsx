import { ApplyFlow } from '../apply/ApplyFlow.tsx';

/** /user/verify: the identity photos (step 3), or the first missing step before them (spec §2). */
export default function VerifyPage() {
  return <ApplyFlow entry="verify" />;
}

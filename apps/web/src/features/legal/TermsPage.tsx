import { TextPage } from '../../ui/TextPage.tsx';

export default function TermsPage() {
  return <TextPage ns="legal" k="terms" testId="terms-page" />;
}

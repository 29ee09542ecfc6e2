import { TextPage } from '../../ui/TextPage.tsx';

export default function PrivacyPage() {
  return <TextPage ns="legal" k="privacy" testId="privacy-page" />;
}

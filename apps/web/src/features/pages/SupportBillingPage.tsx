import { ContactForm } from '../../ui/ContactForm.tsx';
import { TextPage } from '../../ui/TextPage.tsx';

export default function SupportBillingPage() {
  return (
    <TextPage ns="legal" k="billing" testId="support-billing">
      <ContactForm kind="billing" />
    </TextPage>
  );
}

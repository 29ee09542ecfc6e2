import { ContactForm } from '../../ui/ContactForm.tsx';
import { TextPage } from '../../ui/TextPage.tsx';

export default function SupportHomePage() {
  return (
    <TextPage ns="pages" k="support" testId="support-home">
      <ContactForm kind="contact" />
    </TextPage>
  );
}

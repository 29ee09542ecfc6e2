import { ContactForm } from '../../ui/ContactForm.tsx';
import { TextPage } from '../../ui/TextPage.tsx';

export default function ContactPage() {
  return (
    <TextPage ns="pages" k="contact" testId="contact-page">
      <ContactForm kind="contact" />
    </TextPage>
  );
}

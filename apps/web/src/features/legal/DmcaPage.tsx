import { ContactForm } from '../../ui/ContactForm.tsx';
import { TextPage } from '../../ui/TextPage.tsx';

export default function DmcaPage() {
  return (
    <TextPage ns="legal" k="dmca" testId="dmca-page">
      <ContactForm kind="dmca" />
    </TextPage>
  );
}

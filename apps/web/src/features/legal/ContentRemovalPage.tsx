import { ContactForm } from '../../ui/ContactForm.tsx';
import { TextPage } from '../../ui/TextPage.tsx';

export default function ContentRemovalPage() {
  return (
    <TextPage ns="legal" k="contentRemoval" testId="content-removal-page">
      <ContactForm kind="content-removal" />
    </TextPage>
  );
}

import { TextPage } from '../../ui/TextPage.tsx';

export default function AboutPage() {
  return <TextPage ns="pages" k="about" testId="about-page" />;
}

import { TextPage } from '../../ui/TextPage.tsx';

export default function Usc2257Page() {
  return <TextPage ns="legal" k="usc2257" testId="usc2257-page" />;
}

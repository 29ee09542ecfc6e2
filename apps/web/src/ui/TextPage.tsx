import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './text-page.css';

export interface TextSection {
  heading?: string;
  paragraphs: string[];
}

/** Support hours (checklist decision: a setting shown on the support pages). */
export const SUPPORT_HOURS = { from: '8:00', to: '22:00', timezone: 'America/Bogota' } as const;

/** Values every text page may interpolate. */
export const TEXT_VALUES = { ...SUPPORT_HOURS, agent: 'Segpay', share: 80, referral: 5, age: 18 };

/** Sections of readable text from a catalogue key: `<key>.title`, `<key>.intro`, `<key>.sections`. */
export function TextSections({ ns, k }: { ns: string; k: string }) {
  const { t } = useTranslation(ns);
  const sections = t(`${k}.sections`, { returnObjects: true, ...TEXT_VALUES }) as TextSection[];
  return (
    <>
      {Array.isArray(sections) &&
        sections.map((section, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static text, order never changes.
          <section key={index} className="text-section">
            {section.heading && <h2>{section.heading}</h2>}
            {section.paragraphs.map((paragraph, p) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static text, order never changes.
              <p key={p}>{paragraph}</p>
            ))}
          </section>
        ))}
    </>
  );
}

/** A page of readable text (about, legal, support) in the user's language. */
export function TextPage({
  ns,
  k,
  testId,
  children,
}: {
  ns: string;
  k: string;
  testId: string;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation(ns);
  const updated = i18n.exists(`${k}.updated`, { ns }) ? t(`${k}.updated`) : '';
  return (
    <article className="text-page" data-testid={testId}>
      <h1>{t(`${k}.title`)}</h1>
      {updated && <p className="muted">{updated}</p>}
      <p className="text-page__intro">{t(`${k}.intro`, TEXT_VALUES)}</p>
      <TextSections ns={ns} k={k} />
      {children}
    </article>
  );
}

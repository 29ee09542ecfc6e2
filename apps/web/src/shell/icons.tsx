/** Small inline icons (no external assets); decorative, the buttons carry the labels. */
const paths = {
  back: 'M15 18l-6-6 6-6',
  home: 'M3 11l9-8 9 8M5 10v10h5v-6h4v6h5V10',
  feed: 'M4 6h16M4 12h16M4 18h10',
  bell: 'M6 17V11a6 6 0 1112 0v6l2 2H4l2-2zM10 21h4',
  message: 'M4 5h16v11H9l-5 4V5z',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3z',
  star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9L12 3z',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zM4 21a8 8 0 0116 0',
  explore: 'M11 19a8 8 0 100-16 8 8 0 000 16zM21 21l-4.3-4.3',
  compass: 'M12 21a9 9 0 100-18 9 9 0 000 18zM15.5 8.5l-2 5-5 2 2-5 5-2z',
  help: 'M12 21a9 9 0 100-18 9 9 0 000 18zM9.5 9.5a2.5 2.5 0 114 2c-1 .6-1.5 1.2-1.5 2.3M12 17h.01',
} as const;

export function Icon({ name }: { name: keyof typeof paths }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width="22"
      height="22"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[name]} />
    </svg>
  );
}

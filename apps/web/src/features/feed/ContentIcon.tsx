/** Inline icons of the content screens (no emoji font needed, no external assets); decorative. */
const paths = {
  heart:
    'M12 20.5l-1.4-1.3C5.4 14.5 2 11.4 2 7.6 2 4.5 4.4 2 7.5 2c1.7 0 3.4.8 4.5 2.1C13.1 2.8 14.8 2 16.5 2 19.6 2 22 4.5 22 7.6c0 3.8-3.4 6.9-8.6 11.6L12 20.5z',
  comment: 'M21 12a8 8 0 01-11.6 7.1L4 20.5l1.4-4.6A8 8 0 1121 12z',
  bookmark: 'M6 3h12v18l-6-4.5L6 21V3z',
  share: 'M4 12v7a2 2 0 002 2h12a2 2 0 002-2v-7M16 6l-4-4-4 4M12 2v13',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 018 0v4',
  play: 'M7 4l13 8-13 8V4z',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  card: 'M4 4h16v16H4z',
  grid: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9L12 3z',
  check: 'M5 12l5 5 9-10',
  prev: 'M15 18l-6-6 6-6',
  next: 'M9 18l6-6-6-6',
  up: 'M18 15l-6-6-6 6',
  down: 'M6 9l6 6 6-6',
  close: 'M6 6l12 12M18 6L6 18',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zM4 21a8 8 0 0116 0',
  soundOn: 'M11 5L6 9H2v6h4l5 4V5zM15.5 8.5a5 5 0 010 7M19 5a10 10 0 010 14',
  soundOff: 'M11 5L6 9H2v6h4l5 4V5zM22 9l-6 6M16 9l6 6',
} as const;

export type ContentIconName = keyof typeof paths;

export function ContentIcon({
  name,
  filled = false,
  size = 22,
}: {
  name: ContentIconName;
  filled?: boolean;
  size?: number;
}) {
  const dots = name === 'more';
  return (
    <svg
      className="content-icon"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={dots ? 3.5 : 2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[name]} />
    </svg>
  );
}

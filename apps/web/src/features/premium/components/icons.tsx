const TICK = 'M5 12.5l4.5 4.5L19 7.5';
const CROSS = 'M7 7l10 10M17 7L7 17';

/** An icon that carries meaning, named for screen readers. */
function NamedIcon({ label, path }: { label: string; path: string }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" focusable="false" role="img" aria-label={label}>
      <title>{label}</title>
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

/** A decorative icon next to text that already says it. */
function DecorativeIcon({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" focusable="false" aria-hidden="true">
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

export const Tick = ({ label }: { label?: string }) =>
  label ? <NamedIcon label={label} path={TICK} /> : <DecorativeIcon path={TICK} />;
export const Cross = ({ label }: { label: string }) => <NamedIcon label={label} path={CROSS} />;

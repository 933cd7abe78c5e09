import { Fragment } from 'react';

/**
 * An e-mail address or a phone number shown whole: it moves to the next line as one piece
 * rather than breaking mid-value. An address longer than the line wraps only before its "@"
 * and its dots; a number never wraps. Breaking anywhere is the last resort, for a part that is
 * wider than the screen by itself (`.whole-value` in global.css).
 */
export function WholeValue({ value, kind }: { value: string; kind: 'email' | 'phone' }) {
  if (kind === 'phone') return <span className="whole-value whole-value--phone">{value}</span>;
  const parts = value.split(/(?=[@.])/);
  return (
    <span className="whole-value">
      {parts.map((part, index) => (
        // The parts of one address never reorder.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

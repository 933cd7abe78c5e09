import { lazy, type RefObject, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useStartWhenIdle } from '@/lib/use-start-when-idle';
import styles from './login-modal.module.css';

/** The list (the world's dial codes and their names in the page's language): its own chunk. */
const CountryCodeSelect = lazy(() =>
  import('./country-code-select').then((module) => ({ default: module.CountryCodeSelect })),
);

interface Props {
  value: number;
  onChange(dialCode: number): void;
}

/** Opens the list once it has loaded, when its button was clicked before (a click is not lost). */
function OpenIfClicked({
  list,
  clicked,
}: {
  list: RefObject<HTMLDivElement | null>;
  clicked: RefObject<boolean>;
}) {
  useEffect(() => {
    if (!clicked.current) return;
    clicked.current = false;
    list.current?.querySelector('button')?.click();
  }, [list, clicked]);
  return null;
}

/**
 * The dial-code picker, painted first as its closed button (+976); the list behind it loads once
 * the browser is idle after the first paint, or as soon as the button is pointed at or focused.
 */
export function DeferredCountryCodeSelect(props: Props) {
  const { t } = useTranslation('accounts');
  const [started, start] = useStartWhenIdle();
  const list = useRef<HTMLDivElement>(null);
  const clicked = useRef(false);
  const closed = (
    <div className={styles.countryCode}>
      <button
        type="button"
        className={`select ${styles.countryButton}`}
        aria-label={`${t('mobile.country-code')}: +${props.value}`}
        aria-expanded={false}
        onPointerEnter={start}
        onFocus={start}
        onClick={() => {
          clicked.current = true;
          start();
        }}
      >
        +{props.value}
      </button>
    </div>
  );
  if (!started) return closed;
  return (
    <Suspense fallback={closed}>
      <div ref={list} style={{ display: 'contents' }}>
        <CountryCodeSelect {...props} />
      </div>
      <OpenIfClicked list={list} clicked={clicked} />
    </Suspense>
  );
}

import { lazy, useEffect } from 'react';
import { useStartWhenIdle } from '@/lib/use-start-when-idle';
import { CountryCodeField } from './country-code-field';

/** The list (the world's dial codes and their names in the page's language): its own chunk. */
const loadList = () => import('./country-code-select');
const CountryCodeList = lazy(() => loadList().then((module) => ({ default: module.CountryCodeList })));

interface Props {
  value: number;
  onChange(dialCode: number): void;
}

/**
 * The dial-code picker of the login modal, painted first without its list: the list's code loads
 * once the browser is idle after the first paint, or as soon as the button is pointed at or
 * focused. The button itself never changes, so a click before the list arrived opens it.
 */
export function DeferredCountryCodeSelect(props: Props) {
  const [started, start] = useStartWhenIdle();
  useEffect(() => {
    if (started) loadList().catch(() => {}); // a failure is retried when the list is opened
  }, [started]);
  return <CountryCodeField {...props} List={CountryCodeList} onIntent={start} />;
}

import type { ReactNode } from 'react';
import styles from './contact.module.css';

/** Two columns on wide screens: details beside the form. */
export function ContactLayout({ children }: { children: ReactNode }) {
  return <div className={styles.layout}>{children}</div>;
}

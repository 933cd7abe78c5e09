import { useQuery } from '@tanstack/react-query';
import type { BooksMismatch, BooksReport } from '@tunes/shared/books-codes';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../api';
import { QueryState, Table, When } from '../../components';

const subjectOf = (found: BooksMismatch) => found.invoiceId ?? found.subscriptionId ?? '—';

/**
 * Admin: the last check that the books balance (`GET /api/admin/books`): the payment ledger
 * against the invoices, the providers and the periods, with each mismatch. The details are the
 * server's, in English.
 */
export function BooksPanel() {
  const { t } = useTranslation('admin');
  const books = useQuery({
    queryKey: ['admin', 'books'],
    queryFn: () => adminApi<BooksReport>('/books'),
  });
  const report = books.data;
  return (
    <section className="admin-section" aria-labelledby="books-title">
      <h2 id="books-title" className="admin-subtitle">
        {t('books.title')}
      </h2>
      <QueryState pending={books.isPending} error={books.error} />
      {report && (
        <>
          <p className="admin-muted">
            {t('books.checked')}: <When at={report.finishedAt} /> ·{' '}
            {report.since ? t('books.scope-since', { since: report.since }) : t('books.scope-all')} ·{' '}
            {t('books.asked', { count: report.invoicesAsked })}
          </p>
          {report.mismatches.length === 0 ? (
            <p>{t('books.balanced')}</p>
          ) : (
            <>
              <p>
                <strong>{t('books.mismatches', { count: report.mismatches.length })}</strong>
              </p>
              <Table caption={t('books.title')}>
                <thead>
                  <tr>
                    <th scope="col">{t('books.kind')}</th>
                    <th scope="col">{t('books.subject')}</th>
                    <th scope="col">{t('books.detail')}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.mismatches.map((found, index) => (
                    // A check may find two things wrong with one invoice: the row's place keys it.
                    // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered.
                    <tr key={index}>
                      <td>{t(`books.kinds.${found.kind}`)}</td>
                      <td>
                        <code>{subjectOf(found)}</code>
                      </td>
                      <td lang="en">{found.detail}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </>
          )}
          {report.unchecked.length > 0 && (
            <p className="admin-muted">{t('books.unchecked', { count: report.unchecked.length })}</p>
          )}
          {report.truncated && <p className="admin-muted">{t('books.truncated')}</p>}
        </>
      )}
    </section>
  );
}

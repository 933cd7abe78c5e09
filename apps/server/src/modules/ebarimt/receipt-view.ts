import type { Company, Ebarimt } from '@tunes/shared/billing';
import type { Deps } from '../../deps.js';
import './tables.js';

export interface EbarimtView {
  /** The receipt in force: the company one once issued, else the citizen one; null until issued. */
  ebarimt: Ebarimt | null;
  companyReceipt: { status: 'none' | 'pending' | 'issued'; company: Company | null };
}

const NONE: EbarimtView = { ebarimt: null, companyReceipt: { status: 'none', company: null } };

/** The e-barimt of each of `invoiceIds` as the history and the receipt show it. */
export async function ebarimtViews(
  deps: Pick<Deps, 'db'>,
  invoiceIds: string[],
): Promise<Map<string, EbarimtView>> {
  const views = new Map<string, EbarimtView>();
  if (invoiceIds.length === 0) return views;
  const rows = await deps.db
    .selectFrom('ebarimt_receipts')
    .select([
      'invoice_id',
      'kind',
      'status',
      'bill_id',
      'lottery',
      'qr_data',
      'company_registry',
      'company_name',
    ])
    .where('invoice_id', 'in', invoiceIds)
    .execute();
  for (const invoiceId of invoiceIds) {
    const citizen = rows.find((row) => row.invoice_id === invoiceId && row.kind === 'citizen');
    const company = rows.find((row) => row.invoice_id === invoiceId && row.kind === 'company');
    const companyOf = company?.company_registry
      ? { registry: company.company_registry, name: company.company_name ?? '' }
      : null;
    let ebarimt: Ebarimt | null = null;
    if (company?.status === 'issued' && company.bill_id && company.qr_data) {
      ebarimt = { billId: company.bill_id, lottery: null, qrData: company.qr_data, company: companyOf };
    } else if (citizen?.status === 'issued' && citizen.bill_id && citizen.qr_data) {
      ebarimt = { billId: citizen.bill_id, lottery: citizen.lottery, qrData: citizen.qr_data, company: null };
    }
    views.set(invoiceId, {
      ebarimt,
      companyReceipt: company
        ? { status: company.status === 'issued' ? 'issued' : 'pending', company: companyOf }
        : NONE.companyReceipt,
    });
  }
  return views;
}

export const ebarimtViewOf = (views: Map<string, EbarimtView>, invoiceId: string) =>
  views.get(invoiceId) ?? NONE;

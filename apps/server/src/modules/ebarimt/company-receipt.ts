import type { Company } from '@tunes/shared/billing';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import { GatewayError } from '../providers/exchange.js';
import type { ReceiptCompany } from './receipt-requests.js';
import './tables.js';

export type CompanyDeps = Pick<Deps, 'db' | 'clock' | 'throttle' | 'ebarimt' | 'reportError'>;

export const COMPANY_RECEIPT_EXISTS = API_ERROR_CODES.companyReceiptExists;

/**
 * The company of a registry number as the tax authority names it, for a listener who wants the
 * e-barimt in a company's name. Each lookup asks an outside service, so it is counted per user.
 */
export async function findCompany(
  deps: CompanyDeps,
  userId: string,
  registry: string,
  field = 'registry',
): Promise<ReceiptCompany> {
  await enforce(deps.throttle, `company-lookup:${userId}`, LIMITS.companyLookupsPerUser);
  let found: Awaited<ReturnType<Deps['ebarimt']['findCompany']>>;
  try {
    found = await deps.ebarimt.findCompany(registry);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.reportError(error, 'company lookup failed');
    throw new AppError(
      502,
      API_ERROR_CODES.ebarimtUnavailable,
      'The tax authority cannot be reached. Try again later.',
    );
  }
  if (!found.result) {
    throw badRequest(
      `No company has the registry number ${registry}.`,
      field,
      API_ERROR_CODES.unknownCompany,
    );
  }
  return { registry, tin: found.result.tin, name: found.result.name };
}

export const companyView = (company: ReceiptCompany): Company => ({
  registry: company.registry,
  name: company.name,
});

/**
 * A company e-barimt for one of the listener's paid invoices, asked for from the payment history
 * after a citizen one (which it replaces: the job issues it and voids the citizen one). One per
 * invoice: a second ask is a 409.
 */
export async function requestCompanyReceipt(
  deps: CompanyDeps,
  userId: string,
  invoiceId: string,
  registry: string,
): Promise<{ status: 'pending'; company: Company }> {
  const invoice = await deps.db
    .selectFrom('payment_invoices')
    .select(['user_id', 'status'])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice || invoice.user_id !== userId || invoice.status !== 'paid') {
    throw notFound('There is no such receipt.');
  }
  const exists = () => conflict('This payment already has a company receipt.', COMPANY_RECEIPT_EXISTS);
  const existing = await deps.db
    .selectFrom('ebarimt_receipts')
    .select('kind')
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', 'company')
    .executeTakeFirst();
  if (existing) throw exists();
  const company = await findCompany(deps, userId, registry);
  const now = deps.clock.now();
  const inserted = await deps.db
    .insertInto('ebarimt_receipts')
    .values({
      invoice_id: invoiceId,
      kind: 'company',
      company_registry: company.registry,
      company_tin: company.tin,
      company_name: company.name,
      next_attempt_at: now,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['invoice_id', 'kind']).doNothing())
    .returning('kind')
    .executeTakeFirst();
  if (!inserted) throw exists();
  return { status: 'pending', company: companyView(company) };
}

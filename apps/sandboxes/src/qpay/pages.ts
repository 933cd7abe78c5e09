import { formatAmount } from '../gateway/pages.js';
import { SANDBOX_BANKS, type SandboxBank } from './banks.js';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #eef0f5; color: #111827; margin: 0; }
  main { max-width: 420px; margin: 32px auto; background: #fff; border-radius: 16px; padding: 24px;
    box-shadow: 0 4px 24px rgba(0,0,0,.08); }
  h1 { font-size: 1.25rem; margin: 0 0 4px; } .sub { color: #4b5563; margin: 0 0 16px; }
  .amount { font-size: 1.75rem; font-weight: 700; margin: 12px 0 20px; }
  ul { list-style: none; padding: 0; margin: 0; display: grid; gap: 8px; }
  a.bank { display: flex; align-items: center; gap: 12px; padding: 10px; border: 1px solid #d1d5db;
    border-radius: 12px; color: inherit; text-decoration: none; }
  a.bank img { width: 40px; height: 40px; border-radius: 8px; }
  button { width: 100%; padding: 12px; font-size: 1rem; border-radius: 10px; border: 0; cursor: pointer; margin-top: 12px; }
  .approve { background: #0b6e4f; color: #fff; } .decline { background: #e5e7eb; color: #111827; }
  .hint { color: #4b5563; font-size: .875rem; }
  a:focus-visible, button:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="mn"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export interface InvoiceFacts {
  id: string;
  description: string;
  amount: number;
}

const amountOf = (invoice: InvoiceFacts) => formatAmount(invoice.amount, 'MNT', 'mn');

/** What the QR and the short link open on a phone: the bank apps that can pay the invoice. */
export function scanPage(invoice: InvoiceFacts, bankLink: (bank: SandboxBank) => string): string {
  const banks = SANDBOX_BANKS.map(
    (bank) =>
      `<li><a class="bank" href="${escapeHtml(bankLink(bank))}"><img src="/sandbox-qpay/logos/${bank.id}.svg" alt=""><span>${escapeHtml(bank.name)} · ${escapeHtml(bank.description)}</span></a></li>`,
  ).join('');
  return layout(
    'QPay sandbox',
    `<h1>QPay sandbox</h1><p class="sub">${escapeHtml(invoice.description)}</p>
<p class="amount">${escapeHtml(amountOf(invoice))}</p>
<h2>Choose your bank app · Банкаа сонгоно уу</h2><ul>${banks}</ul>`,
  );
}

/** A bank app's confirmation screen: approve or decline the payment (no JavaScript). */
export function bankPage(bank: SandboxBank, invoice: InvoiceFacts, formKey: string): string {
  const fields = `<input type="hidden" name="invoice" value="${escapeHtml(invoice.id)}">
  <input type="hidden" name="form_key" value="${escapeHtml(formKey)}">`;
  return layout(
    `${bank.name} (sandbox)`,
    `<h1>${escapeHtml(bank.name)} (sandbox)</h1><p class="sub">${escapeHtml(bank.description)}</p>
<p>${escapeHtml(invoice.description)}</p>
<p class="amount">${escapeHtml(amountOf(invoice))}</p>
<form method="post" action="/sandbox-qpay/bank/${bank.id}/approve">${fields}
  <button class="approve" type="submit">Approve payment · Төлөх</button>
</form>
<form method="post" action="/sandbox-qpay/bank/${bank.id}/decline">${fields}
  <button class="decline" type="submit">Decline · Татгалзах</button>
</form>
<p class="hint">A sandbox bank: no money moves. Approving pays the QPay invoice and calls the merchant back.</p>`,
  );
}

export function messagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(message)}</p>`);
}

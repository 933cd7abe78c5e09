export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Formats an amount the way the shopper's language writes it (MNT as ₮). */
export function formatAmount(amount: number, currency: string, languageCode: string): string {
  const locale = languageCode === 'mn' ? 'mn-MN' : 'en-US';
  const digits = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(
    currency === 'MNT' ? amount : amount / 100,
  );
  return currency === 'MNT' ? `${digits} ₮` : `${digits} ${currency}`;
}

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f3f4f6; color: #111827; margin: 0; }
  main { max-width: 420px; margin: 48px auto; background: #fff; border-radius: 12px; padding: 28px;
    box-shadow: 0 4px 24px rgba(0,0,0,.08); }
  h1 { font-size: 1.25rem; margin: 0 0 4px; }
  .amount { font-size: 1.75rem; font-weight: 700; margin: 12px 0 20px; }
  label { display: block; font-weight: 600; margin: 12px 0 4px; }
  input { width: 100%; box-sizing: border-box; padding: 10px 12px; font-size: 1rem; border: 1px solid #6b7280;
    border-radius: 8px; }
  .row { display: flex; gap: 12px; } .row > div { flex: 1; }
  button { width: 100%; padding: 12px; font-size: 1rem; border-radius: 8px; border: 0; cursor: pointer; margin-top: 16px; }
  .pay { background: #111827; color: #fff; } .cancel { background: #e5e7eb; color: #111827; }
  .error { color: #b91c1c; font-weight: 600; } .hint { color: #4b5563; font-size: .875rem; }
  button:focus-visible, input:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
`;

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export interface CardPageInput {
  token: string;
  formKey: string;
  description: string;
  amount: number;
  currency: string;
  languageCode: string;
  error?: string;
}

/** The card form: works without JavaScript (the CSP allows none inline). */
export function cardPage(input: CardPageInput): string {
  const token = escapeHtml(input.token);
  const formKey = escapeHtml(input.formKey);
  const amount = formatAmount(input.amount, input.currency, input.languageCode);
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return layout(
    'Sandbox card payment',
    `<h1>Sandbox card payment</h1>
<p>${escapeHtml(input.description)}</p>
<p class="amount">${escapeHtml(amount)}</p>
${error}
<form method="post" action="/sandbox-gateway/payment/pay">
  <input type="hidden" name="token" value="${token}">
  <input type="hidden" name="form_key" value="${formKey}">
  <label for="card_number">Card number</label>
  <input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required>
  <div class="row">
    <div><label for="expiry">Expiry (MM/YY)</label>
      <input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM/YY" required></div>
    <div><label for="cvc">CVC</label>
      <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required></div>
  </div>
  <button class="pay" type="submit">Pay ${escapeHtml(amount)}</button>
</form>
<form method="post" action="/sandbox-gateway/payment/cancel">
  <input type="hidden" name="token" value="${token}">
  <input type="hidden" name="form_key" value="${formKey}">
  <button class="cancel" type="submit">Cancel</button>
</form>
<p class="hint">Test cards: 4242 4242 4242 4242 is paid, 4000 0000 0000 0002 is declined, 4000 0000 0000 0341 is paid now and declined when charged later. Any future expiry, any CVC.</p>`,
  );
}

export function messagePage(title: string, message: string, backUrl?: string): string {
  const back = backUrl ? `<p><a href="${escapeHtml(backUrl)}">Return to the shop</a></p>` : '';
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${back}`);
}

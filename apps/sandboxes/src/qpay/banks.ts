/**
 * The bank apps the sandbox offers, as QPay lists them in an invoice's `urls`; `code` is the
 * provider code a payment names (enums.py KnownProviderCode of Amraa1/qpay_client; the wallet,
 * which has none there, takes its test bank's).
 */
export const SANDBOX_BANKS = [
  { id: 'khanbank', code: '050000', name: 'Khan bank', description: 'Хаан банк', color: '#0b6e4f' },
  { id: 'golomt', code: '150000', name: 'Golomt bank', description: 'Голомт банк', color: '#1d4e89' },
  {
    id: 'tdb',
    code: '040000',
    name: 'Trade and Development bank',
    description: 'Худалдаа хөгжлийн банк',
    color: '#0f3d7a',
  },
  { id: 'statebank', code: '340000', name: 'State bank', description: 'Төрийн банк', color: '#8a1c1c' },
  { id: 'xacbank', code: '320000', name: 'Xac bank', description: 'Хас банк', color: '#b35c00' },
  { id: 'qpaywallet', code: '100000', name: 'qPay wallet', description: 'qPay хэтэвч', color: '#3a2f8f' },
] as const;

export type SandboxBank = (typeof SANDBOX_BANKS)[number];

export function findBank(id: string): SandboxBank | undefined {
  return SANDBOX_BANKS.find((bank) => bank.id === id);
}

/** A square logo with the bank's initials (the real ones are QPay's images). */
export function bankLogoSvg(bank: SandboxBank): string {
  const initials = bank.name
    .split(/\s+/)
    .filter((word) => /^[A-Za-z]/.test(word) && word !== 'and')
    .map((word) => word[0]?.toUpperCase())
    .join('')
    .slice(0, 3);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">
<rect width="96" height="96" rx="20" fill="${bank.color}"/>
<text x="48" y="58" font-family="system-ui, sans-serif" font-size="30" font-weight="700" fill="#fff" text-anchor="middle">${initials}</text>
</svg>`;
}

import { VOUCHER_MAX_LENGTH } from '@tunes/shared/constants';

/** Keeps only what a voucher code may hold while the user types (product.md §5). */
export const toVoucherInput = (value: string) =>
  value.replace(/[^A-Za-z0-9-]/g, '').slice(0, VOUCHER_MAX_LENGTH);

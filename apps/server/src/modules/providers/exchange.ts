/** One call to a provider as the payment log keeps it: what was asked and answered (secrets never included). */
export interface Exchange<T> {
  request: Record<string, unknown>;
  response: unknown;
  result: T;
}

/**
 * A provider (the card gateway, QPay, PosAPI) was unreachable, refused, or answered what its
 * contract does not allow; it carries the exchange for the payment log.
 */
export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    message: string,
    readonly request: Record<string, unknown>,
    readonly response: unknown,
  ) {
    super(message);
  }
}

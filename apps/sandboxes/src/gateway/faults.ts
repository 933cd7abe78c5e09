import type { Deps } from '@tunes/server/deps';
import { orderFaults, takeFault } from '../fault-store.js';
import type { SandboxGatewayFaultKind } from './tables.js';
import './tables.js';

/** The provider calls a fault can be ordered for; `*` is any of them. */
export const GATEWAY_CALLS = [
  'token',
  'check-payment',
  'charge',
  'refund',
  'void',
  'transactions',
  'card-session',
  '*',
] as const;
export type GatewayCall = (typeof GATEWAY_CALLS)[number];

export interface GatewayFaultOrder {
  call: GatewayCall;
  count: number;
  kind: SandboxGatewayFaultKind;
  delayMs: number;
}

/** Orders the next `count` calls of `call` to answer `kind` after `delayMs` (tests). */
export function orderGatewayFaults(deps: Pick<Deps, 'db'>, order: GatewayFaultOrder): Promise<void> {
  return orderFaults(deps, 'sandbox_gateway_faults', order);
}

/** Takes one fault ordered for `call`, else one ordered for any call (fault-store.ts). */
export function takeGatewayFault(deps: Pick<Deps, 'db'>, call: Exclude<GatewayCall, '*'>) {
  return takeFault<SandboxGatewayFaultKind>(deps, 'sandbox_gateway_faults', call);
}

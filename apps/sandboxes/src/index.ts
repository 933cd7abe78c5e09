/**
 * The built-in stand-ins of the providers the server speaks to: the card gateway (product.md
 * §10), QPay's merchant API v2 and the tax authority's PosAPI 3.0 (§12). Each speaks its
 * provider's published protocol, checked by the contracts of the server's providers module, and
 * keeps its own books. The server mounts them outside production only (apps/server/src/sandboxes.ts
 * loads this package by name), so a production build never holds them.
 */
export { default as ebarimt } from './ebarimt/routes.js';
export { default as gateway } from './gateway/routes.js';
export { default as qpay } from './qpay/routes.js';

/**
 * Addresses that only ever answer tests: a production start refuses them (config.ts) unless a
 * staging site opts out in writing (`ALLOW_TEST_PROVIDERS=true`).
 */

/**
 * QPay's public test systems, as the QPay v2 description in Amraa1/qpay_client names them:
 * `https://sandbox.qpay.mn`, the "Sandbox" server of `specs/openapi.json` (`servers`), and
 * `https://merchant-sandbox.qpay.mn/v2`, where the client's sandbox settings connect
 * (`src/qpay_client/v2/defaults.py`, `SANDBOX_URL`; production `https://merchant.qpay.mn/v2`).
 */
const QPAY_TEST_HOSTS = ['sandbox.qpay.mn', 'merchant-sandbox.qpay.mn'];

/**
 * The tax authority's staging e-barimt API. ITC's staging PosAPI package
 * (`ST_PosService_3.0.12-Staging.zip`) talks to `https://st-api.ebarimt.mn/` where the production
 * one talks to `https://api.ebarimt.mn/` (orshih6/ebarimtv3, README.md: ITC's two packages and
 * their `ebarimtUrl`; public PosAPI 3.0 clients' staging presets say the same). The PosAPI service itself runs at the
 * merchant's, so whether it was installed from the staging package no URL of ours can show.
 */
const EBARIMT_TEST_HOSTS = ['st-api.ebarimt.mn'];

/** The built-in stand-ins (apps/sandboxes, mounted by src/sandboxes.ts), never in production. */
const SANDBOX_SEGMENTS = ['sandbox-gateway', 'sandbox-qpay', 'sandbox-ebarimt'];

export type ProviderUrlName = 'PAYMENT_PROVIDER_URL' | 'QPAY_URL' | 'EBARIMT_URL' | 'EBARIMT_INFO_URL';

const TEST_HOSTS: Record<ProviderUrlName, { hosts: string[]; what: string }> = {
  PAYMENT_PROVIDER_URL: { hosts: [], what: '' },
  QPAY_URL: { hosts: QPAY_TEST_HOSTS, what: "QPay's test system" },
  EBARIMT_URL: { hosts: EBARIMT_TEST_HOSTS, what: "the tax authority's staging API" },
  EBARIMT_INFO_URL: { hosts: EBARIMT_TEST_HOSTS, what: "the tax authority's staging API" },
};

/** Why `url`, given as `name`, is a test endpoint, or undefined when it is not one. */
export function testEndpointReason(name: ProviderUrlName, url: string): string | undefined {
  const { hostname, pathname } = new URL(url);
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const { hosts, what } = TEST_HOSTS[name];
  if (hosts.includes(host)) return `is ${what} (${host})`;
  const sandbox = pathname.split('/').find((segment) => SANDBOX_SEGMENTS.includes(segment.toLowerCase()));
  if (sandbox) return `is a built-in sandbox (/${sandbox})`;
  return undefined;
}

/**
 * The launch-day journeys, call for call as the built site makes them in Chromium (recorded with
 * Playwright on the production build; static files left out): a visitor opens `/` and `/premium`
 * (prerendered: no API call), signs in by phone code (a new number, so the grant answers 604 and
 * the site registers it), comes back to `/premium` signed in and buys a plan by card through the
 * sandbox gateway's page or by QPay through the sandbox bank app, and lands on `/success`.
 * The sign-in code is read the development way (`GET /dev/outbox`, DESIGN §4).
 *
 * `call(step, method, path, options, expect)` is the load generator's timed request (launch-load.mjs):
 * `expect` is a status or a function answering what is wrong with an answer (undefined when right).
 */

/** What a browser sends for a page and what the site's API client sends (apps/web/src/lib/api-client.ts). */
const DOCUMENT = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'br, gzip' };
const API = { storeid: 'MNCO', accept: 'application/json', 'accept-encoding': 'br, gzip' };

/** The three MNT plans of spec §9, bought in turn. */
export const PLANS = ['PREMIUM_1M', 'PREMIUM_DUO_1M', 'PREMIUM_FAMILY_1M'];
/** Sandbox test card that pays (DESIGN §3). */
const PAID_CARD = '4242 4242 4242 4242';

export const PROFILE_STEP = 'GET /api/users/{sub}/profile';
/** Development tools the bench uses in place of a phone: reported, but not a listener's call. */
export const TOOL_STEPS = new Set(['GET /dev/outbox (the code, read the dev way)']);

const status = (expected) => (answer) =>
  answer.status === expected ? undefined : `answered ${answer.status}: ${answer.text.slice(0, 200)}`;

const field = (html, name) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1];

function subjectOf(accessToken) {
  return JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')).sub;
}

/**
 * One visitor's sign-up and purchase. `address` is the visitor's own (X-Forwarded-For, believed
 * from the bench's TRUST_PROXY), so the per-address limits count each visitor apart.
 * Resolves with the paid invoice's id; rejects at the first wrong answer.
 */
export async function signUpAndBuy(call, { msisdn, address, method, plan, arrivedAt }) {
  const from = { 'x-forwarded-for': address };
  const page = (step, path, options = {}) =>
    call(step, 'GET', path, { headers: { ...DOCUMENT, ...from }, ...options }, status(200));
  const api = (step, verb, path, { token, body, expect = status(200) } = {}) =>
    call(
      step,
      verb,
      path,
      {
        headers: { ...API, ...from, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      },
      expect,
    );

  await page('GET /', '/', { arrivedAt });
  await page('GET /premium', '/premium');

  // Sign in by phone (the login dialog of /premium): code, check, grant, register, grant.
  await api(
    'GET /api/users/requestotp',
    'GET',
    `/api/users/requestotp?msisdn=${msisdn}&otpprovider=sms&language=en`,
  );
  const code = await readCode(call, msisdn);
  await api('GET /api/users/validateotp', 'GET', `/api/users/validateotp?msisdn=${msisdn}&otp=${code}`, {
    expect: (answer) => (answer.status === 200 && answer.json?.error === null ? undefined : answer.text),
  });
  const grantUrl = (await api('GET /api/application/grantUrl', 'GET', '/api/application/grantUrl')).json
    .grantURL;
  const grant = { form: { grant_type: 'msisdn', msisdn, code, skip_decryption: 'true' } };
  await api('POST /api/oauth2/token (msisdn, a new number: 604)', 'POST', grantUrl, {
    body: grant,
    expect: (answer) => (answer.status === 400 && answer.json?.error === '604' ? undefined : answer.text),
  });
  await api('POST /api/users/registerbymsisdn', 'POST', '/api/users/registerbymsisdn', {
    body: { json: { PhoneNumber: msisdn.slice(3), CountryCode: Number(msisdn.slice(0, 3)), Token: code } },
    expect: status(201),
  });
  const tokens = (await api('POST /api/oauth2/token (msisdn)', 'POST', grantUrl, { body: grant })).json;
  const token = tokens.access_token;
  const sub = subjectOf(token);
  await api('GET /api/users/getlogins', 'GET', `/api/users/getlogins?id=${sub}`, { token });
  await api(PROFILE_STEP, 'GET', `/api/users/${sub}/profile`, { token });

  // Back on /premium, signed in: the page, then its plans and the profile.
  await page('GET /premium', '/premium');
  const [merchant] = (await api('GET /api/merchants', 'GET', '/api/merchants')).json;
  await api('GET /api/packages/allplans', 'GET', `/api/packages/allplans?merchantId=${merchant.MerchantId}`);
  await api(PROFILE_STEP, 'GET', `/api/users/${sub}/profile`, { token });

  const invoiceId =
    method === 'card'
      ? await payByCard({ call, api, page, token, plan, from })
      : await payByQpay({ call, api, token, plan, from });

  // /success: the invoice (paid, or the journey failed), the profile, the receipt.
  await api('GET /api/payments/invoices/{invoiceId}', 'GET', `/api/payments/invoices/${invoiceId}`, {
    token,
    expect: (answer) =>
      answer.status === 200 && answer.json?.status === 'paid'
        ? undefined
        : `not paid: ${answer.status} ${answer.text.slice(0, 200)}`,
  });
  await api(PROFILE_STEP, 'GET', `/api/users/${sub}/profile`, { token });
  await api('GET /api/users/me/receipts/{invoiceId}', 'GET', `/api/users/me/receipts/${invoiceId}`, {
    token,
  });
  return invoiceId;
}

/** The code the SMS carries, from the outbox (written with the request; looked at again briefly). */
async function readCode(call, msisdn) {
  for (let look = 0; look < 20; look++) {
    const answer = await call(
      'GET /dev/outbox (the code, read the dev way)',
      'GET',
      `/dev/outbox?to=${msisdn}`,
      { headers: { accept: 'application/json' } },
      status(200),
    );
    const code = answer.json?.[0]?.code;
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no code reached the outbox of ${msisdn}`);
}

/** Card: checkout, the gateway's card page, pay with the paying test card, back through the server. */
async function payByCard({ call, api, page, token, plan, from }) {
  const started = await api('POST /api/payments/checkout (card)', 'POST', '/api/payments/checkout', {
    token,
    body: { json: { MerchantCode: plan, saveCard: true } },
  });
  const gateway = new URL(started.json.url);
  const form = await page('GET /sandbox-gateway/payment', gateway.pathname + gateway.search);
  const paid = await call(
    'POST /sandbox-gateway/payment/pay',
    'POST',
    '/sandbox-gateway/payment/pay',
    {
      headers: { ...DOCUMENT, ...from },
      body: {
        form: {
          token: field(form.text, 'token'),
          form_key: field(form.text, 'form_key'),
          card_number: PAID_CARD,
          expiry: '12/39',
          cvc: '123',
        },
      },
    },
    status(303),
  );
  const back = new URL(paid.headers.location, gateway);
  const returned = await call(
    'GET /api/payments/return',
    'GET',
    back.pathname + back.search,
    { headers: { ...DOCUMENT, ...from } },
    (answer) =>
      answer.status === 303 && answer.headers.location?.startsWith('/success')
        ? undefined
        : `answered ${answer.status} to ${answer.headers.location}`,
  );
  await page('GET /success', returned.headers.location);
  return started.json.invoiceId;
}

/** QPay: checkout, the page's status poll, the bank app approves (QPay calls back), paid. */
async function payByQpay({ call, api, token, plan, from }) {
  const started = await api('POST /api/payments/checkout (QPay)', 'POST', '/api/payments/checkout', {
    token,
    body: { json: { MerchantCode: plan, method: 'qpay' } },
  });
  const { invoiceId, deeplinks } = started.json;
  const payment = (expected) =>
    api('GET /api/payments/{invoiceId}', 'GET', `/api/payments/${invoiceId}`, {
      token,
      expect: (answer) =>
        answer.status === 200 && answer.json?.status === expected
          ? undefined
          : `expected ${expected}: ${answer.status} ${answer.text.slice(0, 200)}`,
    });
  await payment('pending');
  const bank = new URL(deeplinks[0].link);
  const screen = await call(
    'GET /sandbox-qpay/bank/{bank}',
    'GET',
    bank.pathname + bank.search,
    { headers: { ...DOCUMENT, ...from } },
    status(200),
  );
  await call(
    'POST /sandbox-qpay/bank/{bank}/approve',
    'POST',
    `${bank.pathname}/approve`,
    {
      headers: { ...DOCUMENT, ...from },
      body: { form: { invoice: field(screen.text, 'invoice'), form_key: field(screen.text, 'form_key') } },
    },
    (answer) =>
      answer.status === 200 && answer.text.includes('Payment approved')
        ? undefined
        : answer.text.slice(0, 200),
  );
  await payment('paid');
  return invoiceId;
}

/**
 * A listener's app: `refresh` spends the listener's refresh token for a new pair (kept for its
 * next refresh), `profile` reads the profile with the access token it holds.
 */
export async function listenerCall(call, listener, kind, arrivedAt) {
  const headers = { ...API, 'x-forwarded-for': listener.address };
  if (kind === 'refresh') {
    const answer = await call(
      'listener: POST /api/oauth2/token (refresh_token)',
      'POST',
      '/api/oauth2/token',
      {
        headers,
        body: { form: { grant_type: 'refresh_token', refresh_token: listener.refresh } },
        arrivedAt,
      },
      status(200),
    );
    listener.refresh = answer.json.refresh_token;
    listener.access = answer.json.access_token;
    return;
  }
  await call(
    `listener: ${PROFILE_STEP}`,
    'GET',
    `/api/users/${listener.sub}/profile`,
    { headers: { ...headers, authorization: `Bearer ${listener.access}` }, arrivedAt },
    status(200),
  );
}

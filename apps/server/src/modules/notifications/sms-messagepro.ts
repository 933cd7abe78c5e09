import type { Transport } from './transports.js';

/**
 * MessagePro, CallPro's SMS gateway to the Mongolian operators (`SMS_PROVIDER=messagepro`).
 *
 * MessagePro hands its description (a PDF) to its customers and publishes none; what follows is
 * that description as public client code transcribes it, where independent projects agree
 * (docs/operations.md names them):
 *
 *   GET https://api.messagepro.mn/send?from=<special number>&to=<8-digit number>&text=<text>
 *   x-api-key: <the organisation's key>
 *
 * `text` is UTF-8, percent-encoded (Cyrillic is sent as it is). At most 5 requests a second.
 * 200 answers a JSON array whose item says `"Result": "SUCCESS"` with a `"Message ID"` (or
 * `"FAIL"` with a `"Reason"`); 402: the organisation is closed for non-payment; 403: no key or a
 * wrong one; 404: the organisation or the special number is not active; 503: over 5 a second.
 * The request has no field for an id of ours, and the description says nothing of repeats: a
 * try that timed out after MessagePro accepted it is sent again as a new message.
 */
export const MESSAGEPRO_SEND_URL = 'https://api.messagepro.mn/send';

const REFUSALS: Record<number, string> = {
  402: 'the organisation is closed for non-payment',
  403: 'the API key is missing or wrong',
  404: 'the organisation or its special number is not active',
  503: 'more than 5 requests a second',
};

/** MessagePro's `to`: the 8-digit number of a Mongolian full number ("97688112233" → "88112233"). */
export function messageProRecipient(msisdn: string): string {
  const local = /^976(\d{8})$/.exec(msisdn)?.[1];
  if (!local) throw new Error('MessagePro sends only to Mongolian numbers (976 and 8 digits)');
  return local;
}

/** The request of one message, as the description sets it out. */
export function messageProRequest(
  settings: { url: string; apiKey: string; from: string },
  message: { to: string; text: string },
): { url: string; headers: Record<string, string> } {
  // encodeURIComponent, not URLSearchParams: a space is %20, which no query reader takes for a '+'.
  const query = [
    ['from', settings.from],
    ['to', messageProRecipient(message.to)],
    ['text', message.text],
  ]
    .map(([name, value]) => `${name}=${encodeURIComponent(value ?? '')}`)
    .join('&');
  return { url: `${settings.url}?${query}`, headers: { 'x-api-key': settings.apiKey } };
}

interface MessageProResult {
  Result?: unknown;
  'Message ID'?: unknown;
  Reason?: unknown;
}

/** Reads MessagePro's answer: returns the message id it accepted, or throws saying why not. */
export function readMessageProAnswer(status: number, body: string): string {
  const refusal = REFUSALS[status];
  if (refusal) throw new Error(`MessagePro answered ${status}: ${refusal}`);
  if (status !== 200) throw new Error(`MessagePro answered ${status}`);
  let results: unknown;
  try {
    results = JSON.parse(body);
  } catch {
    throw new Error('MessagePro answered 200 without its JSON result');
  }
  if (!Array.isArray(results)) throw new Error('MessagePro answered 200 without its JSON result');
  const result = results[0] as MessageProResult | undefined;
  if (result?.Result !== 'SUCCESS') {
    const reason = typeof result?.Reason === 'string' ? `: ${result.Reason}` : '';
    throw new Error(
      `MessagePro did not accept the message (${String(result?.Result)})${reason}`.slice(0, 300),
    );
  }
  return String(result['Message ID'] ?? '');
}

/** One GET per message; accepted only on MessagePro's SUCCESS. */
export function messageProTransport(
  settings: { url: string; apiKey: string; from: string; timeoutMs?: number },
  fetchImpl: typeof fetch = fetch,
): Transport {
  return {
    configured: true,
    send: async ({ to, text }) => {
      const request = messageProRequest(settings, { to, text });
      const response = await fetchImpl(request.url, {
        method: 'GET',
        headers: request.headers,
        signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
      });
      readMessageProAnswer(response.status, await response.text());
    },
  };
}

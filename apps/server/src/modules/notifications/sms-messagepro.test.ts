import { describe, expect, it } from 'vitest';
import { messageProRecipient, messageProRequest, readMessageProAnswer } from './sms-messagepro.js';

const settings = { url: 'https://api.messagepro.mn/send', apiKey: 'key-1', from: '72001234' };

describe('MessagePro request', () => {
  it('sends a Mongolian full number as its 8 digits and nothing else', () => {
    expect(messageProRecipient('97688112233')).toBe('88112233');
    for (const msisdn of ['88112233', '9768811223', '976881122334', '447700900123']) {
      expect(() => messageProRecipient(msisdn), msisdn).toThrow('MessagePro sends only to Mongolian numbers');
    }
  });

  it('puts from, to and the UTF-8 percent-encoded text in the query and the key in x-api-key', () => {
    const request = messageProRequest(settings, { to: '97688112233', text: 'Код: 1234 & бусад+' });
    expect(request.url).toBe(
      'https://api.messagepro.mn/send?from=72001234&to=88112233&text=%D0%9A%D0%BE%D0%B4%3A%201234%20%26%20%D0%B1%D1%83%D1%81%D0%B0%D0%B4%2B',
    );
    expect(request.headers).toEqual({ 'x-api-key': 'key-1' });
  });
});

describe('MessagePro answer', () => {
  it('is accepted only on 200 with Result SUCCESS, giving its message id', () => {
    expect(readMessageProAnswer(200, '[{"Result":"SUCCESS","Message ID":42}]')).toBe('42');
  });

  it('names the reason of a FAIL result', () => {
    expect(() => readMessageProAnswer(200, '[{"Result":"FAIL","Reason":"Blocked number"}]')).toThrow(
      'MessagePro did not accept the message (FAIL): Blocked number',
    );
  });

  it('refuses a 200 that is not its JSON array', () => {
    for (const body of ['OK', '{"Result":"SUCCESS"}', '[]']) {
      expect(() => readMessageProAnswer(200, body), body).toThrow(/MessagePro/);
    }
  });

  it('names each documented refusal', () => {
    expect(() => readMessageProAnswer(402, '')).toThrow('402: the organisation is closed for non-payment');
    expect(() => readMessageProAnswer(403, '')).toThrow('403: the API key is missing or wrong');
    expect(() => readMessageProAnswer(404, '')).toThrow(
      '404: the organisation or its special number is not active',
    );
    expect(() => readMessageProAnswer(503, '')).toThrow('503: more than 5 requests a second');
    expect(() => readMessageProAnswer(500, 'oops')).toThrow('MessagePro answered 500');
  });
});

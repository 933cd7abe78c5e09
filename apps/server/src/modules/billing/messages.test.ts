import { describe, expect, it } from 'vitest';
import { billingMessages } from './messages.js';

const on = new Date('2027-02-10T04:00:00Z');
const price = { amount: 6900, currency: 'MNT' };

describe("a trial's reminder", () => {
  it('names one plan when the first renewal pays for the trial’s own', () => {
    const plans = { trial: 'Premium', next: 'Premium' };
    expect(
      billingMessages.trialEndsCard('en', plans, price, on, 'Visa •••• 4242', 'https://x/profile'),
    ).toMatch(
      /^Your free Premium trial ends on .+\. Then we will charge .+ to your saved card \(Visa •••• 4242\)\./,
    );
    expect(billingMessages.trialEndsLink('mn', plans, price, on, 'https://x/pay')).toMatch(
      /^Таны Premium багцын үнэгүй туршилт .+-нд дуусна\. Үргэлжлүүлэн сонсох бол [^б]+ төлнө үү: https:\/\/x\/pay /,
    );
  });

  it('names the plan a waiting change pays for, in both languages', () => {
    const plans = { trial: 'Premium Duo', next: 'Premium' };
    expect(
      billingMessages.trialEndsCard('en', plans, price, on, 'Visa •••• 4242', 'https://x/profile'),
    ).toMatch(
      /^Your free Premium Duo trial ends on .+\. Then we will charge .+ for Premium to your saved card/,
    );
    expect(
      billingMessages.trialEndsCard('mn', plans, price, on, 'Visa •••• 4242', 'https://x/profile'),
    ).toMatch(
      /^Таны Premium Duo багцын үнэгүй туршилт .+ Дараа нь хадгалсан картаас \(Visa •••• 4242\) Premium багцын .+ татагдана\./,
    );
    expect(billingMessages.trialEndsLink('en', plans, price, on, 'https://x/pay')).toMatch(
      /To keep listening, pay .+ for Premium here: https:\/\/x\/pay /,
    );
    expect(billingMessages.trialEndsLink('mn', plans, price, on, 'https://x/pay')).toMatch(
      /Үргэлжлүүлэн сонсох бол Premium багцын .+ төлнө үү: https:\/\/x\/pay /,
    );
  });
});

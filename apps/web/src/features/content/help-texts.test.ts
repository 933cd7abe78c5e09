import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FAQ_QUESTION_COUNT,
  INVITATION_TTL_DAYS,
  PASSWORD_MIN_LENGTH,
  PRIVACY_SECTION_COUNT,
  PROFILE_FIELD_MAX_LENGTH,
  TERMS_SECTION_COUNT,
  VOUCHER_MAX_LENGTH,
} from '@tunes/shared/constants';
import { describe, expect, it } from 'vitest';

const localesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../i18n/locales');

interface HelpTexts {
  faq: { items: { q: string; a: string[] }[] };
  terms: { sections: { title: string; paragraphs: string[] }[] };
  privacy: { sections: { title: string; paragraphs: string[] }[] };
}

const load = (language: string) =>
  JSON.parse(readFileSync(path.join(localesDir, language, 'content-help.json'), 'utf8')) as HelpTexts;

describe.each(['en', 'mn'])('help texts in %s', (language) => {
  const texts = load(language);

  it(`has ${FAQ_QUESTION_COUNT} FAQ questions with 1 to 9 answer lines each`, () => {
    expect(texts.faq.items).toHaveLength(FAQ_QUESTION_COUNT);
    for (const item of texts.faq.items) {
      expect(item.q.trim()).not.toBe('');
      expect(item.a.length).toBeGreaterThanOrEqual(1);
      expect(item.a.length).toBeLessThanOrEqual(9);
    }
  });

  it(`has ${TERMS_SECTION_COUNT} terms sections and ${PRIVACY_SECTION_COUNT} privacy sections`, () => {
    expect(texts.terms.sections).toHaveLength(TERMS_SECTION_COUNT);
    expect(texts.privacy.sections).toHaveLength(PRIVACY_SECTION_COUNT);
  });

  it('has unique questions (they key the accordion)', () => {
    const questions = texts.faq.items.map((item) => item.q);
    expect(new Set(questions).size).toBe(questions.length);
  });
});

describe('Mongolian help texts', () => {
  it('are written in Cyrillic, not copied English', () => {
    const en = load('en');
    const mn = load('mn');
    mn.faq.items.forEach((item, index) => {
      expect(item.q).toMatch(/[А-Яа-яЁёӨөҮү]/);
      expect(item.q).not.toBe(en.faq.items[index]?.q);
    });
    for (const section of [...mn.terms.sections, ...mn.privacy.sections]) {
      expect(section.title).toMatch(/[А-Яа-яЁёӨөҮү]/);
    }
  });

  it('state the same prices and limits as the English texts', () => {
    const numbers = (texts: HelpTexts) =>
      (
        JSON.stringify([texts.faq.items, texts.terms.sections, texts.privacy.sections]).match(/\d[\d,]*/g) ??
        []
      ).sort();
    expect(numbers(load('mn'))).toEqual(numbers(load('en')));
  });
});

describe('English help texts', () => {
  const en = load('en');
  const answer = (question: string) => en.faq.items.find((item) => item.q === question)?.a.join(' ') ?? '';
  const section = (title: RegExp) =>
    en.terms.sections.find((item) => title.test(item.title))?.paragraphs.join(' ') ?? '';

  it('give the plans and prices of product.md §9', () => {
    const plans = answer('Which plans are there and what do they cost?');
    expect(plans).toMatch(/Premium: 6,900₮ a month for one person/);
    expect(plans).toMatch(/Duo: 9,900₮ a month for two people instead of 13,800₮ \(28% less\)/);
    expect(plans).toMatch(/Family: 17,900₮ a month for up to four people instead of 27,600₮ \(35% less\)/);
  });

  it('state the rules the product enforces', () => {
    expect(answer('How long is an invitation valid?')).toContain(`expires ${INVITATION_TTL_DAYS} days after`);
    expect(answer('How do I create an account?')).toMatch(/mobile number or with your e-mail/);
    expect(answer('What do I need for an e-mail account?')).toContain(
      `at least ${PASSWORD_MIN_LENGTH} characters`,
    );
    expect(answer('What is a voucher and how do I use it?')).toContain(
      `at most ${VOUCHER_MAX_LENGTH} characters`,
    );
    expect(answer('How do I change my name, e-mail or language?')).toContain(
      `up to ${PROFILE_FIELD_MAX_LENGTH} characters`,
    );
    expect(answer('How do I cancel Premium?')).toMatch(/until the end of the billing cycle/);
  });

  it("carry the spec's terms: billing, price notice, refunds, suspension", () => {
    expect(section(/Billing/)).toMatch(/billed monthly or annually/);
    expect(section(/Price changes/)).toMatch(/at least 30 days before a new price applies/);
    expect(section(/refunds/)).toMatch(/non-refundable, except where the law requires/);
    expect(section(/Unpaid/)).toMatch(/suspended until the subscription is paid/);
  });
});

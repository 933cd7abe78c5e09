import i18next from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import commonEn from '@/i18n/locales/en/common.json';
import { i18nOptions } from '@/lib/i18n';
import { FormError, FormField, TextField } from './form-field';

async function renderIn(element: ReactElement) {
  const instance = i18next.createInstance();
  await instance.init({ ...i18nOptions('en', instance, true), resources: { en: { common: commonEn } } });
  return renderToStaticMarkup(<I18nextProvider i18n={instance}>{element}</I18nextProvider>);
}
const render = (field: Parameters<typeof FormField>[0]) => renderIn(<FormField {...field} />);

const input = (control: object) => <input className="input" {...control} />;

describe('a form field', () => {
  it('binds its label to the control and, without an error, marks nothing invalid', async () => {
    const html = await render({ id: 'login-email', label: 'Email address', children: input });
    expect(html).toBe(
      '<div class="field"><label class="field__label" for="login-email">Email address</label>' +
        '<input class="input" id="login-email" aria-invalid="false"/></div>',
    );
  });

  it('announces a schema error in the active language and ties it to the control', async () => {
    const html = await render({
      id: 'login-email',
      label: 'Email address',
      error: 'validation.enter-valid-email',
      children: input,
    });
    expect(html).toContain('aria-invalid="true" aria-describedby="login-email-error"');
    expect(html).toContain(
      '<p id="login-email-error" class="field__error" role="alert">Please enter a valid email address.</p>',
    );
  });

  it('shows a text already translated as it is', async () => {
    const html = await render({ id: 'login-code', label: 'Code', error: 'Invalid code', children: input });
    expect(html).toContain('role="alert">Invalid code</p>');
  });

  it('describes the control by its hint, then by its error', async () => {
    const html = await render({
      id: 'voucher-code',
      label: 'Voucher code',
      hint: 'Letters and digits',
      error: 'validation.required',
      className: 'extra',
      children: input,
    });
    expect(html).toContain('<div class="field extra">');
    expect(html).toContain('aria-describedby="voucher-code-hint voucher-code-error"');
    expect(html).toContain('<span id="voucher-code-hint" class="field__hint">Letters and digits</span>');
  });

  it('as a text field, hands its input the props it is given', async () => {
    const html = await renderIn(
      <TextField
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        name="password"
      />,
    );
    expect(html).toContain(
      '<input id="login-password" aria-invalid="false" class="input" type="password" autoComplete="current-password" name="password"/>',
    );
  });
});

describe("a form's failure", () => {
  it('is announced', async () => {
    expect(await renderIn(<FormError>Login failed</FormError>)).toBe(
      '<p class="form-error" role="alert">Login failed</p>',
    );
  });
});

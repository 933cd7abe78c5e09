import { createOperatorSchema, OPERATOR_ROLES } from '@tunes/shared/console';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormError, FormField, TextField } from '@/components/form-field';
import { adminApi } from '../../api';
import { schemaResolver, showFailure } from '../../forms';
import { consoleQueryClient } from '../../session';

export const operatorsKey = ['admin', 'operators'];
const resolver = schemaResolver(createOperatorSchema);
type Values = z.input<typeof createOperatorSchema>;

/** Admin: a new operator by e-mail and role; `onLink` gets the set-up link to hand over. */
export function NewOperatorForm({ onLink }: { onLink(setupUrl: string): void }) {
  const { t } = useTranslation('admin');
  const form = useForm<Values, unknown, z.output<typeof createOperatorSchema>>({
    resolver,
    defaultValues: { email: '', role: 'support' },
  });
  const { errors, isSubmitting } = form.formState;

  const add = form.handleSubmit(async (values) => {
    try {
      const { setupUrl } = await adminApi<{ setupUrl: string }>('/operators', {
        method: 'POST',
        json: values,
      });
      onLink(setupUrl);
      form.reset();
      await consoleQueryClient.invalidateQueries({ queryKey: operatorsKey });
    } catch (failure) {
      showFailure(form, failure, { [API_ERROR_CODES.operatorExists]: 'email' });
    }
  });

  return (
    <form
      className="admin-inline-form admin-section"
      noValidate
      onSubmit={add}
      aria-labelledby="operator-new"
    >
      <h2 id="operator-new" className="admin-subtitle">
        {t('operators.new')}
      </h2>
      <TextField
        id="operator-email"
        label={t('fields.email')}
        error={errors.email?.message}
        type="email"
        maxLength={254}
        {...form.register('email')}
      />
      <FormField id="operator-role" label={t('fields.role')} error={errors.role?.message}>
        {(control) => (
          <select {...control} className="select" {...form.register('role')}>
            {OPERATOR_ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`roles.${role}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <button type="submit" className="button button--primary" disabled={isSubmitting}>
        {t('operators.add')}
      </button>
      {errors.root?.server && <FormError>{errors.root.server.message}</FormError>}
    </form>
  );
}

import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { adminApi, errorText, type Operator, type Role } from '../api';
import { ConfirmedAction, QueryState, Table, When } from '../components';
import { consoleQueryClient } from '../session';

const ROLES: readonly Role[] = ['admin', 'support', 'content'];
const operatorsKey = ['admin', 'operators'];

/** The full set-up link to hand to a new operator. */
const fullLink = (setupUrl: string) => new URL(setupUrl, location.origin).href;

/** Admin: operators — add one (with its set-up link), change a role, disable, new link. */
export default function OperatorsPage({ self }: { self: Operator }) {
  const { t } = useTranslation('admin');
  const operators = useQuery({
    queryKey: operatorsKey,
    queryFn: () => adminApi<{ operators: Operator[] }>('/operators'),
  });
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setError(null);
    try {
      const { setupUrl } = await adminApi<{ setupUrl: string }>('/operators', {
        method: 'POST',
        json: { email: String(data.get('email')).trim(), role: String(data.get('role')) },
      });
      setLink(fullLink(setupUrl));
      form.reset();
      await consoleQueryClient.invalidateQueries({ queryKey: operatorsKey });
    } catch (failure) {
      setError(errorText(failure, t));
    }
  }

  async function update(operator: Operator, change: { role?: Role; disabled?: boolean }) {
    await adminApi(`/operators/${encodeURIComponent(operator.id)}`, { method: 'PATCH', json: change });
    await consoleQueryClient.invalidateQueries({ queryKey: operatorsKey });
  }

  return (
    <>
      <h1 className="admin-title">{t('operators.title')}</h1>
      <form className="admin-inline-form admin-section" onSubmit={add} aria-labelledby="operator-new">
        <h2 id="operator-new" className="admin-subtitle">
          {t('operators.new')}
        </h2>
        <div className="field">
          <label className="field__label" htmlFor="operator-email">
            {t('fields.email')}
          </label>
          <input id="operator-email" name="email" type="email" className="input" maxLength={254} required />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="operator-role">
            {t('fields.role')}
          </label>
          <select id="operator-role" name="role" className="select" defaultValue="support">
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`roles.${role}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button--primary">
          {t('operators.add')}
        </button>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
      {link && (
        <div className="form-success" role="status">
          <p>{t('operators.link')}</p>
          <code className="admin-link">{link}</code>
        </div>
      )}
      <QueryState pending={operators.isPending} error={operators.error} />
      {operators.data && (
        <Table caption={t('operators.title')}>
          <thead>
            <tr>
              <th scope="col">{t('fields.email')}</th>
              <th scope="col">{t('fields.role')}</th>
              <th scope="col">{t('fields.status')}</th>
              <th scope="col">{t('operators.last-sign-in')}</th>
              <th scope="col">{t('fields.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {operators.data.operators.map((operator) => {
              const isSelf = operator.id === self.id;
              return (
                <tr key={operator.id}>
                  <td>{operator.email}</td>
                  <td>
                    <label className="visually-hidden" htmlFor={`role-${operator.id}`}>
                      {t('operators.role-of', { email: operator.email })}
                    </label>
                    <select
                      id={`role-${operator.id}`}
                      className="select"
                      value={operator.role}
                      disabled={isSelf}
                      onChange={(event) =>
                        update(operator, { role: event.target.value as Role }).then(
                          () => toast.success(t('operators.updated')),
                          (failure) => toast.error(errorText(failure, t)),
                        )
                      }
                    >
                      {ROLES.map((role) => (
                        <option key={role} value={role}>
                          {t(`roles.${role}`)}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    {operator.disabled
                      ? t('operators.disabled')
                      : operator.setUp
                        ? t('operators.active')
                        : t('operators.pending')}
                  </td>
                  <td>
                    <When at={operator.lastSignInAt} />
                  </td>
                  <td className="admin-actions">
                    {!isSelf && (
                      <ConfirmedAction
                        label={operator.disabled ? t('operators.enable') : t('operators.disable')}
                        title={operator.disabled ? t('operators.enable') : t('operators.disable')}
                        danger={!operator.disabled}
                        run={async () => {
                          await update(operator, { disabled: !operator.disabled });
                          return t('operators.updated');
                        }}
                      >
                        <p>
                          {t(operator.disabled ? 'operators.enable-question' : 'operators.disable-question', {
                            email: operator.email,
                          })}
                        </p>
                      </ConfirmedAction>
                    )}
                    <ConfirmedAction
                      label={t('operators.new-link')}
                      title={t('operators.new-link')}
                      run={async () => {
                        const { setupUrl } = await adminApi<{ setupUrl: string }>(
                          `/operators/${encodeURIComponent(operator.id)}/setup-link`,
                          { method: 'POST', json: {} },
                        );
                        setLink(fullLink(setupUrl));
                        await consoleQueryClient.invalidateQueries({ queryKey: operatorsKey });
                        return t('operators.link-made');
                      }}
                    >
                      <p>{t('operators.new-link-question', { email: operator.email })}</p>
                    </ConfirmedAction>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </>
  );
}

import { useQuery } from '@tanstack/react-query';
import { OPERATOR_ROLES } from '@tunes/shared/console';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import { adminApi, type Operator, type Role } from '../../api';
import { ConfirmedAction, QueryState, Table, When } from '../../components';
import { consoleQueryClient } from '../../session';
import { NewOperatorForm, operatorsKey } from './new-operator-form';

/** The full set-up link to hand to a new operator. */
const fullLink = (setupUrl: string) => new URL(setupUrl, location.origin).href;

async function update(operator: Operator, change: { role?: Role; disabled?: boolean }) {
  await adminApi(`/operators/${encodeURIComponent(operator.id)}`, { method: 'PATCH', json: change });
  await consoleQueryClient.invalidateQueries({ queryKey: operatorsKey });
}

/** Admin: operators — add one (with its set-up link), change a role, disable, new link. */
export default function OperatorsPage({ self }: { self: Operator }) {
  const { t } = useTranslation('admin');
  const operators = useQuery({
    queryKey: operatorsKey,
    queryFn: () => adminApi<{ operators: Operator[] }>('/operators'),
  });
  const [link, setLink] = useState<string | null>(null);

  return (
    <>
      <h1 className="admin-title">{t('operators.title')}</h1>
      <NewOperatorForm onLink={(setupUrl) => setLink(fullLink(setupUrl))} />
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
            {operators.data.operators.map((operator) => (
              <OperatorRow
                key={operator.id}
                operator={operator}
                isSelf={operator.id === self.id}
                onLink={(setupUrl) => setLink(fullLink(setupUrl))}
              />
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

function OperatorRow({
  operator,
  isSelf,
  onLink,
}: {
  operator: Operator;
  isSelf: boolean;
  onLink(setupUrl: string): void;
}) {
  const { t } = useTranslation('admin');
  return (
    <tr>
      <td>{operator.email}</td>
      <td>
        <FormField
          id={`role-${operator.id}`}
          label={t('operators.role-of', { email: operator.email })}
          className="admin-bare-field"
        >
          {(control) => (
            <select
              {...control}
              className="select"
              value={operator.role}
              disabled={isSelf}
              onChange={(event) =>
                update(operator, { role: event.target.value as Role }).then(
                  () => toast.success(t('operators.updated')),
                  (failure) => toast.error(userMessage(failure)),
                )
              }
            >
              {OPERATOR_ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(`roles.${role}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
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
            onLink(setupUrl);
            await consoleQueryClient.invalidateQueries({ queryKey: operatorsKey });
            return t('operators.link-made');
          }}
        >
          <p>{t('operators.new-link-question', { email: operator.email })}</p>
        </ConfirmedAction>
      </td>
    </tr>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { userMessage } from '@/lib/api-error';
import { QueryState, Table } from '../../components';
import { listPlans, planCall, plansKey } from './plan-api';
import { NewPlanForm } from './plan-form';
import { PlanRow } from './plan-row';

/** Admin: the plans on /premium — create, order, badge, a new price with notice, retire. */
export default function PlansPage() {
  const { t } = useTranslation('admin');
  const plans = useQuery({ queryKey: plansKey, queryFn: listPlans });
  const [moving, setMoving] = useState(false);

  async function move(index: number, by: -1 | 1) {
    const codes = (plans.data?.plans ?? []).map((plan) => plan.code);
    const [code] = codes.splice(index, 1);
    if (!code) return;
    codes.splice(index + by, 0, code);
    setMoving(true);
    try {
      await planCall('/plans/order', 'PUT', { codes });
      toast.success(t('plans.reordered'));
    } catch (failure) {
      toast.error(userMessage(failure));
      await plans.refetch();
    } finally {
      setMoving(false);
    }
  }

  const list = plans.data?.plans ?? [];
  return (
    <>
      <h1 className="admin-title">{t('plans.title')}</h1>
      <p className="admin-muted">{t('plans.intro')}</p>
      <QueryState pending={plans.isPending} error={plans.error} />
      {plans.data && (
        <Table caption={t('plans.list')}>
          <thead>
            <tr>
              <th scope="col">{t('plans.order')}</th>
              <th scope="col">{t('plans.fields.name')}</th>
              <th scope="col">{t('plans.price-column')}</th>
              <th scope="col">{t('plans.fields.months')}</th>
              <th scope="col">{t('plans.fields.seats')}</th>
              <th scope="col">{t('plans.status')}</th>
              <th scope="col">{t('plans.subscribers')}</th>
              <th scope="col">{t('fields.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((plan, index) => (
              <PlanRow
                key={plan.code}
                plan={plan}
                index={index}
                count={list.length}
                move={move}
                moving={moving}
              />
            ))}
          </tbody>
        </Table>
      )}
      <NewPlanForm />
    </>
  );
}

import { toNestErrors } from '@hookform/resolvers';
import { type ConsolePlan, PLAN_MESSAGES, type PlanMessageKey } from '@tunes/shared/catalog';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { adminApi } from '../../api';
import { issueText } from '../../forms';
import { i18n } from '../../i18n';
import { consoleQueryClient } from '../../session';

/** The console's plan calls (docs/console-api.md "Plans"); each change answers the new list. */

export const plansKey = ['admin', 'plans'] as const;

/** The plan calls' own refusals, in the console's words. */
const MESSAGES = {
  [API_ERROR_CODES.planExists]: 'admin:plans.errors.exists',
  [API_ERROR_CODES.plansChanged]: 'admin:plans.errors.changed',
  [API_ERROR_CODES.priceUnchanged]: 'admin:plans.errors.unchanged',
} as const;

/** Calls a plan route and shows the list it answers. */
export async function planCall(
  path: string,
  method: 'POST' | 'PUT',
  json: unknown,
): Promise<{ plans: ConsolePlan[]; change?: { notices: number; takesEffectAt: string } }> {
  const answer = await adminApi<{
    plans: ConsolePlan[];
    change?: { notices: number; takesEffectAt: string };
  }>(path, { method, json, messages: MESSAGES });
  consoleQueryClient.setQueryData(plansKey, { plans: answer.plans });
  return answer;
}

export const listPlans = () => adminApi<{ plans: ConsolePlan[] }>('/plans');

const SENTENCE_KEYS = new Map(
  (Object.entries(PLAN_MESSAGES) as [PlanMessageKey, string][]).map(([key, sentence]) => [sentence, key]),
);

/** A resolver of a shared plan schema: its sentences in the console's words, others as every form's. */
export function planResolver<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
): Resolver<Input, unknown, Output> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const key = SENTENCE_KEYS.get(issue.message);
      errors[issue.path.join('.')] ??= {
        type: issue.code,
        message: key ? i18n.t(`plans.errors.${key}`, { ns: 'admin' }) : issueText(issue),
      };
    }
    return { values: {}, errors: toNestErrors(errors, options) };
  };
}

import { OPERATOR_ROLES } from '@tunes/shared/console';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashPassword } from '../accounts/secrets.js';
import { toOperatorView } from './operator-view.js';
import { totpCode } from './totp.js';

/** A fixed base32 secret for tests that do not choose one. */
export const DEV_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const DEV_OPERATOR_PASSWORD = 'operator-password-1';

/**
 * Development only (under /dev; docs/console-api.md §7): a ready operator with a known password
 * and TOTP secret, and the current code of a secret, so end-to-end tests can sign in.
 */
export default async function consoleDevRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/admin/operators',
    {
      schema: {
        hide: true,
        body: z.object({
          email: z.string().trim().toLowerCase().min(3).max(254),
          role: z.enum(OPERATOR_ROLES),
          password: z.string().min(12).max(200).default(DEV_OPERATOR_PASSWORD),
          totpSecret: z
            .string()
            .regex(/^[A-Z2-7]{16,64}$/)
            .default(DEV_TOTP_SECRET),
        }),
      },
    },
    async (request, reply) => {
      const { email, role, password, totpSecret } = request.body;
      const values = {
        role,
        password_hash: await hashPassword(password),
        totp_secret: totpSecret,
        totp_last_step: null,
        disabled_at: null,
      };
      const row = await app.deps.db
        .insertInto('operators')
        .values({ email, created_at: app.deps.clock.now(), ...values })
        .onConflict((oc) => oc.column('email').doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
      return reply.code(201).send({ operator: toOperatorView(row), password, totpSecret });
    },
  );
  api.get(
    '/admin/totp',
    {
      schema: {
        hide: true,
        querystring: z.object({
          secret: z
            .string()
            .regex(/^[A-Z2-7]{16,64}$/)
            .default(DEV_TOTP_SECRET),
          offset: z.coerce.number().int().min(-1).max(1).default(0),
        }),
      },
    },
    async (request) => {
      const at = new Date(app.deps.clock.now().getTime() + request.query.offset * 30_000);
      return { code: await totpCode(request.query.secret, at) };
    },
  );
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { notFound, ProviderRefusal } from '@tunes/server/lib/errors';
import {
  gatewayCardSessionAnswerSchema,
  gatewayCardSessionCheckAnswerSchema,
  gatewayCardSessionCheckRequestSchema,
  gatewayCardSessionRequestSchema,
  gatewayErrorSchema as gatewayError,
  gatewayPageQuerySchema,
} from '@tunes/server/modules/providers/gateway-contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ColumnType } from 'kysely';
import { z } from 'zod';
import { judgeCard } from './cards.js';
import { describeSandboxCard, saveSandboxCard } from './charges.js';
import { escapeHtml, layout, messagePage } from './pages.js';

export type CardSessionStatus = 'pending' | 'saved' | 'declined' | 'cancelled';

/** A save-card session (`rest/card-session`): a card checked and kept without a charge. */
export interface SandboxGatewayCardSessionsTable {
  token: string;
  client_id: string;
  reference: string;
  language_code: string;
  redirect_url: string;
  status: ColumnType<CardSessionStatus, CardSessionStatus | undefined, CardSessionStatus>;
  card_token: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  settled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

declare module '@tunes/server/db/schema' {
  interface Database {
    sandbox_gateway_card_sessions: SandboxGatewayCardSessionsTable;
  }
}

const formFields = z.object({
  token: z.string().max(200).default(''),
  form_key: z.string().max(200).default(''),
  card_number: z.string().max(40).optional(),
  expiry: z.string().max(10).optional(),
  cvc: z.string().max(8).optional(),
});

function saveCardPage(input: { token: string; formKey: string; error?: string }): string {
  const token = escapeHtml(input.token);
  const formKey = escapeHtml(input.formKey);
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return layout(
    'Sandbox card: save a card',
    `<h1>Save a card</h1>
<p>Nothing is charged now. The card is kept for the shop's later payments.</p>
${error}
<form method="post" action="/sandbox-gateway/card/save">
  <input type="hidden" name="token" value="${token}">
  <input type="hidden" name="form_key" value="${formKey}">
  <label for="card_number">Card number</label>
  <input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required>
  <div class="row">
    <div><label for="expiry">Expiry (MM/YY)</label>
      <input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM/YY" required></div>
    <div><label for="cvc">CVC</label>
      <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required></div>
  </div>
  <button class="pay" type="submit">Save card</button>
</form>
<form method="post" action="/sandbox-gateway/card/cancel">
  <input type="hidden" name="token" value="${token}">
  <input type="hidden" name="form_key" value="${formKey}">
  <button class="cancel" type="submit">Cancel</button>
</form>
<p class="hint">Test cards: 4242 4242 4242 4242 is saved, 4000 0000 0000 0002 is refused, 4000 0000 0000 0341 is saved and declined when charged later.</p>`,
  );
}

/**
 * The gateway's save-card flow without a charge: `rest/card-session` opens a page for one
 * merchant reference, the card page checks the card (a declined card is refused and nothing is
 * kept), `rest/card-session/check` answers the state and the kept card's token. Mounted by
 * routes.ts with the merchant check it shares.
 */
export function cardSessionRoutes(
  app: FastifyInstance,
  assertMerchant: (clientId: string, clientSecret: string) => void,
) {
  const { deps } = app;
  const { config, clock } = deps;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const formKeyOf = (token: string) =>
    createHmac('sha256', config.SANDBOX_GATEWAY_SECRET).update(`card.${token}`).digest('base64url');
  const html = (reply: FastifyReply, status: number, page: string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
  const find = (token: string) =>
    deps.db
      .selectFrom('sandbox_gateway_card_sessions')
      .selectAll()
      .where('token', '=', token)
      .executeTakeFirst();

  routes.post(
    '/rest/card-session',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'Open a save-card page without a charge (provider protocol)',
        body: gatewayCardSessionRequestSchema,
        response: {
          200: gatewayCardSessionAnswerSchema,
          400: gatewayError,
          401: gatewayError,
          409: gatewayError,
        },
      },
    },
    async (request) => {
      const { body } = request;
      assertMerchant(body.client_id, body.client_secret);
      const token = randomBytes(24).toString('base64url');
      const inserted = await deps.db
        .insertInto('sandbox_gateway_card_sessions')
        .values({
          token,
          client_id: body.client_id,
          reference: body.reference,
          language_code: body.languageCode,
          redirect_url: body.redirect_url,
          created_at: clock.now(),
        })
        .onConflict((oc) => oc.columns(['client_id', 'reference']).doNothing())
        .returning('token')
        .executeTakeFirst();
      if (!inserted)
        throw new ProviderRefusal(409, 'duplicate_reference', 'This reference already has a session.');
      return { token };
    },
  );

  routes.post(
    '/rest/card-session/check',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'The state of a save-card session (provider protocol)',
        body: gatewayCardSessionCheckRequestSchema,
        response: {
          200: gatewayCardSessionCheckAnswerSchema,
          400: gatewayError,
          401: gatewayError,
          404: gatewayError,
        },
      },
    },
    async (request) => {
      const { body } = request;
      assertMerchant(body.client_id, body.client_secret);
      const session = await deps.db
        .selectFrom('sandbox_gateway_card_sessions')
        .select(['reference', 'status', 'card_token'])
        .where('client_id', '=', body.client_id)
        .where('reference', '=', body.reference)
        .executeTakeFirst();
      if (!session) throw notFound('No save-card session for this reference.');
      const card =
        session.status === 'saved' && session.card_token
          ? await describeSandboxCard(deps, body.client_id, session.card_token)
          : null;
      return { reference: session.reference, status: session.status, card };
    },
  );

  routes.get(
    '/card',
    {
      schema: {
        tags: ['sandbox gateway'],
        summary: 'The save-card form',
        querystring: gatewayPageQuerySchema,
      },
    },
    async (request, reply) => {
      const session = await find(request.query.token);
      if (!session)
        return html(reply, 404, messagePage('Session not found', 'This card session does not exist.'));
      if (session.status !== 'pending')
        return html(
          reply,
          409,
          messagePage('Session closed', 'This card session is finished.', session.redirect_url),
        );
      return html(reply, 200, saveCardPage({ token: session.token, formKey: formKeyOf(session.token) }));
    },
  );

  /** Closes a pending session once and sends the shopper back to the merchant. */
  const close = async (
    reply: FastifyReply,
    session: { token: string; client_id: string; redirect_url: string },
    status: Exclude<CardSessionStatus, 'pending'>,
    card: { number: string; expires: string } | null,
  ) => {
    const cardToken =
      status === 'saved' && card ? await saveSandboxCard(deps, session.client_id, card) : null;
    const closed = await deps.db
      .updateTable('sandbox_gateway_card_sessions')
      .set({ status, card_token: cardToken, settled_at: clock.now() })
      .where('token', '=', session.token)
      .where('status', '=', 'pending')
      .returning('redirect_url')
      .executeTakeFirst();
    if (!closed)
      return html(
        reply,
        409,
        messagePage('Session closed', 'This card session is finished.', session.redirect_url),
      );
    return reply.redirect(closed.redirect_url, 303);
  };

  const readForm = async (body: unknown, reply: FastifyReply) => {
    const form = formFields.safeParse(body ?? {});
    const fields = form.success ? form.data : { token: '', form_key: '' };
    const session = fields.token ? await find(fields.token) : undefined;
    const a = Buffer.from(fields.form_key);
    const b = Buffer.from(session ? formKeyOf(session.token) : '');
    if (!session || a.length !== b.length || !timingSafeEqual(a, b)) {
      await html(reply, 400, messagePage('Session not found', 'This card form is not valid. Start again.'));
      return null;
    }
    return { fields, session };
  };

  routes.post(
    '/card/save',
    { schema: { tags: ['sandbox gateway'], summary: 'Save a test card (form post)' } },
    async (request, reply) => {
      const read = await readForm(request.body, reply);
      if (!read) return reply;
      const { fields, session } = read;
      const outcome = judgeCard(fields, clock.now());
      if (!outcome.ok) {
        return html(
          reply,
          400,
          saveCardPage({ token: session.token, formKey: formKeyOf(session.token), error: outcome.error }),
        );
      }
      // A card its bank declines is not kept: the check answers `declined`.
      return close(reply, session, outcome.status === 'paid' ? 'saved' : 'declined', outcome);
    },
  );

  routes.post(
    '/card/cancel',
    { schema: { tags: ['sandbox gateway'], summary: 'Leave without saving a card (form post)' } },
    async (request, reply) => {
      const read = await readForm(request.body, reply);
      if (!read) return reply;
      return close(reply, read.session, 'cancelled', null);
    },
  );
}

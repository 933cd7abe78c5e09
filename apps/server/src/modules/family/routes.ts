import { errorBodySchema } from '@tunes/shared/errors';
import {
  acceptedInvitationSchema,
  createdInvitationSchema,
  invitationCodeParamSchema,
  invitationCodesSchema,
  invitationOfPlanParamsSchema,
  sharedUserParamsSchema,
  sharedUsersSchema,
  subscriptionIdParamSchema,
} from '@tunes/shared/family';
import { sendInvitationSchema, sentInvitationSchema } from '@tunes/shared/invitation-send';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createInvitationCode, listInvitationCodes } from './invitation-codes.js';
import { sendInvitation } from './invitation-send.js';
import { acceptInvitation } from './invitation-single-use.js';
import { withdrawInvitation } from './invitation-withdrawal.js';
import { leavePlan } from './leave-plan.js';
import { listSharedUsers, removeSharedUser } from './members.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** product.md §7 `subscription/*` calls: an owner's invitation links and members, and joining a plan. */
export default async function familyRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['family'];

  api.get(
    '/subscription/:id/invitation-codes/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The owner's live invitation codes and how many more may be created",
        params: subscriptionIdParamSchema,
        response: { 200: invitationCodesSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => listInvitationCodes(app.deps, request.params.id, request.userId),
  );

  api.post(
    '/subscription/:id/invitation-code',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Create an invitation code for one free seat (expires after 5 days)',
        params: subscriptionIdParamSchema,
        response: { 201: createdInvitationSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const created = await createInvitationCode(app.deps, request.params.id, request.userId);
      return reply.code(201).send({ Code: created.code, ExpiresAt: created.expiresAt.toISOString() });
    },
  );

  api.delete(
    '/subscription/:id/invitation-codes/:code',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Withdraw an unused invitation: its link stops working at once and its seat is free',
        description:
          '204 when withdrawn; 404 alike for a used, expired or unknown code and for anyone but the owner.',
        params: invitationOfPlanParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { id, code } = request.params;
      await withdrawInvitation(app.deps, id, request.userId, code);
      request.log.info({ subscriptionId: id, userId: request.userId }, 'family invitation withdrawn');
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/subscription/:id/invitation-codes/:code/send',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Send an unused invitation link by SMS or e-mail, in the owner's language",
        description:
          "`To` is a phone number (8 digits for Mongolia, or `+` and the country code) or an e-mail address. 403 for anyone but the owner; 404 for a used, expired or unknown code; 409 `plan_ended`; 429 past the owner's or the recipient's send limits.",
        params: invitationOfPlanParamsSchema,
        body: sendInvitationSchema,
        response: { 202: sentInvitationSchema, ...errors, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { id, code } = request.params;
      const sent = await sendInvitation(
        app.deps,
        { subscriptionId: id, ownerId: request.userId, code, to: request.body.To, clientAddress: request.ip },
        request.log,
      );
      request.log.info({ subscriptionId: id, channel: sent.Channel }, 'family invitation sent');
      return reply.code(202).send(sent);
    },
  );

  api.get(
    '/subscription/:id/shared-by/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The members of the owner's plan",
        params: subscriptionIdParamSchema,
        response: { 200: sharedUsersSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => listSharedUsers(app.deps, request.params.id, request.userId),
  );

  api.delete(
    '/subscription/:id/shared-users/:userId',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Remove a member from the plan',
        params: sharedUserParamsSchema,
        response: { 204: z.null(), ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      await removeSharedUser(app.deps, request.params.id, request.userId, request.params.userId, request.log);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/subscription/:id/leave',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Leave a plan as a member: the seat is free at once and the owner is told',
        description: '404 when the user is not a member of the plan; 409 `owner_cannot_leave` for its owner.',
        params: subscriptionIdParamSchema,
        response: { 204: z.null(), ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      await leavePlan(app.deps, request.params.id, request.userId, request.log);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/subscription/invitations/:code',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Accept an invitation: join the plan as a member',
        description:
          '400 `already_subscribed` when the user holds an active subscription; 404 `invitation_invalid` for a used, expired or unknown code.',
        params: invitationCodeParamSchema,
        response: { 200: acceptedInvitationSchema, ...errors },
      },
    },
    async (request) => {
      const { subscriptionId } = await acceptInvitation(app.deps, request.params.code, request.userId);
      return { SubscriptionId: subscriptionId };
    },
  );
}

import {
  forgotPasswordSchema,
  messageSchema,
  registerByEmailSchema,
  registerByMsisdnSchema,
  registeredSchema,
  requestOtpQuerySchema,
  resetPasswordAnswerSchema,
  resetPasswordSchema,
  sendRefusalSchema,
  tokenResponseSchema,
  validateOtpQuerySchema,
  validateOtpResponseSchema,
} from '@tunes/shared/accounts';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import { errorBodySchema } from '@tunes/shared/errors';
import { toMsisdn } from '@tunes/shared/validation';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { sendToAccount } from '../notifications/send-to-account.js';
import { holderOf } from './account-outbox.js';
import { spendHmacToken } from './hmac.js';
import { accountMessages } from './messages.js';
import { checkOtp, codeRefusal, consumeOtp, createOtp, markOtpValidated, otpResultCode } from './otp.js';
import { resetPassword, sendPasswordResetLink } from './password-reset.js';
import { accountErrors, userIdSchema } from './route-schemas.js';
import { hashPassword } from './secrets.js';
import { issueTokenPair } from './tokens.js';
import { createEmailUser, createMobileUser, emailInUse } from './users.js';

/** The `users/*` calls of product.md §7. */
export default async function accountRoutes(api: FastifyInstance) {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const { deps } = api;

  app.get(
    '/users/requestotp',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Send a 4-digit one-time code by SMS (msisdn) or e-mail (email)',
        description:
          'Past the sends a client network has free each hour, the answer is 429 `challenge_required` with a proof-of-work `challenge` (ALTCHA); the same call with the solved `proof` sends the code. Every refusal names itself in `error` (security.md "Sends").',
        querystring: requestOtpQuerySchema,
        response: { 200: messageSchema, 400: sendRefusalSchema, 429: sendRefusalSchema },
      },
    },
    async (request) => {
      const { msisdn, email, language = 'en', proof } = request.query;
      const target = msisdn ?? email ?? '';
      const channel = msisdn ? 'sms' : 'email';
      const code = await createOtp(deps, target, {
        channel,
        recipient: target,
        clientAddress: request.ip,
        sender: 'visitor',
        proof,
      });
      // A sign-in code belongs to the account that holds the number or address now, if any, and
      // is written in the account's language; before registration, in the site's (`language`).
      const holder = await holderOf(deps.db, channel, target);
      const lang = holder?.language ?? language;
      await sendToAccount(
        deps,
        holder?.id ?? null,
        msisdn
          ? { channel: 'sms', to: msisdn, text: accountMessages.otp(lang, code), code }
          : {
              channel: 'email',
              to: target,
              subject: accountMessages.otpSubject(lang),
              text: accountMessages.otp(lang, code),
              code,
            },
        request.log,
      );
      return { message: 'Code sent.' };
    },
  );

  app.get(
    '/users/validateotp',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Check a one-time code; error null or "610" means valid',
        querystring: validateOtpQuerySchema,
        response: { 200: validateOtpResponseSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request) => {
      const { msisdn, email, otp } = request.query;
      const check = await checkOtp(deps, msisdn ?? email ?? '', otp);
      if (check.ok) {
        if (email && (await emailInUse(deps.db, email))) {
          throw conflict(
            'This email address is already associated with another account. Login with the account or use a different email address.',
            API_ERROR_CODES.emailInUse,
          );
        }
        await markOtpValidated(deps, check.id);
      }
      return { error: otpResultCode(check) };
    },
  );

  app.post(
    '/users/registerbymsisdn',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Register a mobile number with the code sent to it',
        body: registerByMsisdnSchema,
        response: { 201: registeredSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { PhoneNumber, CountryCode, Token, Language = 'en' } = request.body;
      const msisdn = toMsisdn(CountryCode, PhoneNumber);
      const check = await checkOtp(deps, msisdn, Token);
      if (!check.ok)
        throw codeRefusal(check, () =>
          badRequest('The code is invalid or has expired.', 'Token', API_ERROR_CODES.invalidCode),
        );
      const user = await createMobileUser(deps.db, { msisdn, countryCode: CountryCode, language: Language });
      return reply.code(201).send({ UserId: user.id });
    },
  );

  app.post(
    '/users/register',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Register an e-mail account with the code sent to the address',
        body: registerByEmailSchema,
        response: { 201: registeredSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { Email, Username, Password, Country, Language = 'en', Otp } = request.body;
      if (Username && Username !== Email) throw badRequest('Username must equal Email.', 'Username');
      const check = await checkOtp(deps, Email, Otp);
      if (!check.ok)
        throw codeRefusal(check, () =>
          badRequest('The code is invalid or has expired.', 'Otp', API_ERROR_CODES.invalidCode),
        );
      if (await emailInUse(deps.db, Email)) {
        throw conflict(
          'This email address is already associated with another account.',
          API_ERROR_CODES.emailInUse,
        );
      }
      const passwordHash = await hashPassword(Password);
      if (!(await consumeOtp(deps, check.id))) {
        throw badRequest('The code is invalid or has expired.', 'Otp', API_ERROR_CODES.invalidCode);
      }
      const user = await createEmailUser(deps.db, {
        email: Email,
        passwordHash,
        country: Country,
        language: Language,
      });
      return reply.code(201).send({ UserId: user.id });
    },
  );

  app.post(
    '/users/forgot-password',
    {
      schema: {
        tags: ['accounts'],
        summary: 'E-mail a single-use link to create a new password',
        body: forgotPasswordSchema,
        response: { 200: messageSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      // The link is written in the account's language; the call's `Language` is the site's.
      await sendPasswordResetLink(deps, request.body.Email, request.ip, request.log);
      return { message: "If an account exists you'll receive a link by email to create a new password." };
    },
  );

  app.post(
    '/users/reset-password',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Set a new password with the token of a reset link',
        body: resetPasswordSchema,
        response: { 200: resetPasswordAnswerSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const { email } = await resetPassword(deps, request.body.Token, request.body.Password, request.ip);
      return { message: 'Your password has been changed.', Email: email };
    },
  );

  app.post(
    '/users/:userId/validateHMAC',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Silent login with an HMAC token in Authorization (product.md §11)',
        params: z.object({ userId: userIdSchema('userId') }),
        response: { 200: tokenResponseSchema, ...accountErrors },
      },
    },
    async (request) => {
      const { userId } = request.params;
      const token = request.headers.authorization ?? '';
      if (!(await spendHmacToken(deps, userId, token))) {
        throw new AppError(
          401,
          API_ERROR_CODES.unauthorized,
          'Unauthorized access. The request was unacceptable, often due to missing a required parameter.',
        );
      }
      const user = await deps.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound();
      return issueTokenPair(deps, user.id, undefined, {
        userAgent: request.headers['user-agent'],
        address: request.ip,
      });
    },
  );
}

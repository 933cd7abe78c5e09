import { GRANT_ERRORS, isValidMsisdn, tokenResponseSchema } from '@tunes/shared/accounts';
import { PASSWORD_MAX_LENGTH } from '@tunes/shared/constants';
import { errorBodySchema } from '@tunes/shared/errors';
import { OTP_PATTERN } from '@tunes/shared/validation';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { checkOtp, codeRefusal, consumeOtp } from './otp.js';
import { withPasswordTries } from './password-tries.js';
import { verifyPassword } from './secrets.js';
import { grantError, issueTokenPair, rotateRefreshToken, type SignInClient } from './tokens.js';
import { findUserByMsisdn, findUserForLogin } from './users.js';

export const TOKEN_PATH = '/oauth2/token';

const grantBodySchema = z.object({
  grant_type: z.string().max(40),
  msisdn: z.string().max(20).optional(),
  code: z.string().max(20).optional(),
  username: z.string().max(254).optional(),
  password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  refresh_token: z.string().max(200).optional(),
  skip_decryption: z.string().max(10).optional(),
});

type GrantBody = z.infer<typeof grantBodySchema>;

async function msisdnGrant(deps: Deps, body: GrantBody, client: SignInClient) {
  const msisdn = body.msisdn?.trim().replace(/^\+/, '') ?? '';
  if (!isValidMsisdn(msisdn)) {
    throw grantError(
      400,
      GRANT_ERRORS.cannotAuthenticate,
      "Can't authenticate. Phone number not valid.",
      'msisdn',
    );
  }
  const wrongCode = () => grantError(403, GRANT_ERRORS.wrongCode, 'Invalid code entered.', 'code');
  const code = body.code?.trim() ?? '';
  if (!OTP_PATTERN.test(code)) throw wrongCode();
  const check = await checkOtp(deps, msisdn, code);
  if (!check.ok) throw codeRefusal(check, wrongCode);
  const user = await findUserByMsisdn(deps.db, msisdn);
  // The code stays live so the site can register the number and ask again (product.md §4).
  if (!user) throw grantError(400, GRANT_ERRORS.notRegistered, 'This number is not registered.', 'msisdn');
  if (!(await consumeOtp(deps, check.id))) throw wrongCode();
  return issueTokenPair(deps, user.id, undefined, client);
}

async function passwordGrant(deps: Deps, body: GrantBody, client: SignInClient) {
  const username = body.username?.trim().toLowerCase() ?? '';
  const password = body.password ?? '';
  if (!username) throw grantError(400, GRANT_ERRORS.invalidGrant, 'Username is required.', 'username');
  if (!password) throw grantError(400, GRANT_ERRORS.invalidGrant, 'Password is required.', 'password');
  return withPasswordTries(deps, username, client.address ?? '', async () => {
    const user = await findUserForLogin(deps.db, username);
    if (!(await verifyPassword(password, user?.password_hash ?? null)) || !user) {
      throw grantError(
        400,
        GRANT_ERRORS.invalidGrant,
        'Login failed. Please check your details and try again.',
      );
    }
    return issueTokenPair(deps, user.id, undefined, client);
  });
}

/** `GET /api/application/grantUrl` and the token endpoint it names (product.md §7, api.md). */
export default async function tokenRoutes(api: FastifyInstance) {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const { deps } = api;

  app.get(
    '/application/grantUrl',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Where to post token grants',
        response: { 200: z.object({ grantURL: z.string() }) },
      },
    },
    async () => ({ grantURL: `/api${TOKEN_PATH}` }),
  );

  app.post(
    TOKEN_PATH,
    {
      schema: {
        tags: ['accounts'],
        summary: 'Token grants: msisdn (number + code), password, refresh_token (form-encoded)',
        body: grantBodySchema,
        response: {
          200: tokenResponseSchema,
          400: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const body = request.body;
      const client = { userAgent: request.headers['user-agent'], address: request.ip };
      switch (body.grant_type) {
        case 'msisdn':
          return msisdnGrant(deps, body, client);
        case 'password':
          return passwordGrant(deps, body, client);
        case 'refresh_token':
          if (!body.refresh_token) {
            throw grantError(400, GRANT_ERRORS.invalidGrant, 'refresh_token is required.', 'refresh_token');
          }
          return rotateRefreshToken(deps, body.refresh_token, client);
        default:
          throw grantError(
            400,
            GRANT_ERRORS.unsupportedGrantType,
            'grant_type must be msisdn, password or refresh_token.',
            'grant_type',
          );
      }
    },
  );
}

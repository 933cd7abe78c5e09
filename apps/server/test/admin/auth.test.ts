import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOperator } from '../../src/modules/console/operators.js';
import { totpCode } from '../../src/modules/console/totp.js';
import { runAdmin } from '../helpers/admin.js';
import {
  auditEntries,
  consoleCall,
  consoleHeaders,
  OPERATOR_PASSWORD,
  randomTotpSecret,
  sessionCookie,
  signedInOperator,
  signInCall,
} from '../helpers/console.js';
import { createUser } from '../helpers/factories.js';
import { migratedDataDir } from '../helpers/pglite-snapshot.js';
import { createTestApp, type TestApp, testDatabaseKind } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const MINUTE = 60_000;

const setupStart = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/setup/start',
    headers: consoleHeaders(),
    payload: { token },
  });
const tokenOf = (setupUrl: string) => new URL(setupUrl, 'http://x').searchParams.get('token') ?? '';

describe('set-up link', () => {
  it('enrols password and TOTP once, even when completed by many requests at once', async () => {
    const { setupUrl } = await createOperator(
      t.deps,
      { email: 'new.op@ops.example.mn', role: 'content' },
      null,
    );
    const token = tokenOf(setupUrl);
    expect(token.length).toBeGreaterThanOrEqual(40);

    const start = await setupStart(token);
    expect(start.statusCode, start.body).toBe(200);
    const setup = start.json() as { secret: string; otpauthUri: string; qrDataUrl: string; email: string };
    expect(setup.email).toBe('new.op@ops.example.mn');
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.qrDataUrl).toMatch(/^data:image\/png;base64,/);

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/admin/setup/complete',
      headers: consoleHeaders(),
      payload: { token, password: OPERATOR_PASSWORD, code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_totp', field: 'code' });

    const code = await totpCode(setup.secret, t.clock.now());
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/setup/complete',
          headers: consoleHeaders(),
          payload: { token, password: OPERATOR_PASSWORD, code },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    // The others find the link used (404) or its tries spent (429): none signs in.
    expect(
      statuses.filter((status) => status !== 200).every((status) => status === 404 || status === 429),
    ).toBe(true);

    const again = await setupStart(token);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: 'setup_link_invalid' });

    // The session set-up gave works.
    const winner = answers.find((answer) => answer.statusCode === 200);
    const me = await consoleCall(t, sessionCookie(winner?.headers['set-cookie']), 'GET', '/api/admin/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      operator: { email: 'new.op@ops.example.mn', role: 'content', setUp: true },
    });
  });

  it('a new one ends the old password, authenticator and sessions at once, and enrols afresh', async () => {
    const admin = await signedInOperator(t, 'admin');
    const victim = await signedInOperator(t, 'support');
    const issued = await consoleCall(
      t,
      admin.cookie,
      'POST',
      `/api/admin/operators/${victim.id}/setup-link`,
      {},
    );
    expect(issued.statusCode, issued.body).toBe(200);
    const { setupUrl } = issued.json() as { setupUrl: string };

    // The session signed in before the link is over, and the old credentials sign in no more.
    expect((await consoleCall(t, victim.cookie, 'GET', '/api/admin/me')).statusCode).toBe(401);
    t.clock.advance(MINUTE);
    const old = await signInCall(t, {
      email: victim.email,
      password: OPERATOR_PASSWORD,
      code: await totpCode(victim.secret, t.clock.now()),
    });
    expect(old.statusCode).toBe(401);
    const listed = await consoleCall(t, admin.cookie, 'GET', '/api/admin/operators');
    expect(
      (listed.json() as { operators: { id: string; setUp: boolean }[] }).operators.find(
        (operator) => operator.id === victim.id,
      ),
    ).toMatchObject({ setUp: false });
    const [entry] = await auditEntries(t, admin.cookie, 'operator.setup_link');
    expect(entry).toMatchObject({ targetId: victim.id, after: { setUp: false, sessionsEnded: 1 } });

    // The link enrols a new authenticator and password.
    const token = tokenOf(setupUrl);
    const { secret } = (await setupStart(token)).json() as { secret: string };
    const completed = await t.app.inject({
      method: 'POST',
      url: '/api/admin/setup/complete',
      headers: consoleHeaders(),
      payload: { token, password: 'a-new-password-2', code: await totpCode(secret, t.clock.now()) },
    });
    expect(completed.statusCode, completed.body).toBe(200);
    t.clock.advance(MINUTE);
    const fresh = await signInCall(t, {
      email: victim.email,
      password: 'a-new-password-2',
      code: await totpCode(secret, t.clock.now()),
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
  });

  it('expires after 24 hours', async () => {
    const { setupUrl } = await createOperator(
      t.deps,
      { email: 'late.op@ops.example.mn', role: 'support' },
      null,
    );
    const token = tokenOf(setupUrl);
    t.clock.advance(24 * 60 * MINUTE + 1000);
    const start = await setupStart(token);
    expect(start.statusCode).toBe(404);
  });

  // The command runs on an embedded DATA_DIR of its own whatever the layer: PGlite's layer runs it.
  it.skipIf(testDatabaseKind === 'postgres')(
    'is printed by `npm run admin -- operators:add`, with clear errors for bad arguments',
    async () => {
      const dataDir = migratedDataDir(inject('pgliteSnapshot'), 'tunes-operators-');
      const add = (email: string, role: string) =>
        runAdmin(dataDir, 'operators:add', '--email', email, '--role', role);
      const added = await add('cli.op@ops.example.mn', 'admin');
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toMatch(/\/admin\/setup\?token=[\w-]{40,}/);
      const twice = await add('cli.op@ops.example.mn', 'admin');
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain('already exists');
      const badRole = await add('x@ops.example.mn', 'boss');
      expect(badRole.code).toBe(2);
      expect(badRole.stderr).toContain('--role must be admin, support or content');
      const help = await runAdmin(dataDir, 'operators:add', '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('--email');
    },
    120_000,
  );
});

describe('sign-in', () => {
  it('needs the password and a TOTP code, and refuses a code used before', async () => {
    const { email, secret } = await signedInOperator(t, 'support');
    t.clock.advance(MINUTE);
    const code = await totpCode(secret, t.clock.now());
    const noCode = await signInCall(t, { email, password: OPERATOR_PASSWORD, code: '123456' });
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toMatchObject({ error: 'invalid_credentials' });
    const badPassword = await signInCall(t, { email, password: 'not-the-password', code });
    expect(badPassword.statusCode).toBe(401);
    const withoutTotp = await t.app.inject({
      method: 'POST',
      url: '/api/admin/session',
      headers: consoleHeaders(),
      payload: { email, password: OPERATOR_PASSWORD },
    });
    expect(withoutTotp.statusCode).toBe(400);

    // The same right code at once from many places: one session.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => signInCall(t, { email, password: OPERATOR_PASSWORD, code })),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    const replay = await signInCall(t, { email, password: OPERATOR_PASSWORD, code });
    expect(replay.statusCode).toBe(401);
  });

  it('is refused with 429 after 5 failures for one e-mail from one address, counted at once', async () => {
    const { email, secret } = await signedInOperator(t, 'content');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        signInCall(t, { email, password: 'wrong-password-x', code: '111111' }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 401)).toHaveLength(5);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(7);
    t.clock.advance(MINUTE);
    const right = await signInCall(t, {
      email,
      password: OPERATOR_PASSWORD,
      code: await totpCode(secret, t.clock.now()),
    });
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
  });

  it('ends after 30 minutes without a request and after 12 hours whatever happens', async () => {
    const { cookie } = await signedInOperator(t, 'content');
    t.clock.advance(29 * MINUTE);
    expect((await consoleCall(t, cookie, 'GET', '/api/admin/me')).statusCode).toBe(200);
    t.clock.advance(29 * MINUTE);
    expect((await consoleCall(t, cookie, 'GET', '/api/admin/me')).statusCode).toBe(200);
    t.clock.advance(31 * MINUTE);
    const idle = await consoleCall(t, cookie, 'GET', '/api/admin/me');
    expect(idle.statusCode).toBe(401);

    const busy = await signedInOperator(t, 'content');
    for (let minutes = 0; minutes < 12 * 60; minutes += 25) {
      t.clock.advance(25 * MINUTE);
      const answer = await consoleCall(t, busy.cookie, 'GET', '/api/admin/me');
      expect(answer.statusCode).toBe(minutes + 25 < 12 * 60 ? 200 : 401);
    }
  });

  it('signs out: the cookie stops working', async () => {
    const { cookie } = await signedInOperator(t, 'support');
    const out = await consoleCall(t, cookie, 'DELETE', '/api/admin/session');
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await consoleCall(t, cookie, 'GET', '/api/admin/me')).statusCode).toBe(401);
  });

  it('sets the cookie HttpOnly, SameSite=Strict, scoped to /api/admin', async () => {
    const email = 'cookie.op@ops.example.mn';
    const secret = randomTotpSecret();
    await t.app.inject({
      method: 'POST',
      url: '/dev/admin/operators',
      payload: { email, role: 'admin', password: OPERATOR_PASSWORD, totpSecret: secret },
    });
    const answer = await signInCall(t, {
      email,
      password: OPERATOR_PASSWORD,
      code: await totpCode(secret, t.clock.now()),
    });
    const header = String(answer.headers['set-cookie']);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain('Path=/api/admin');
  });
});

describe('roles and listeners', () => {
  it('refuses a change without the console header (CSRF defence)', async () => {
    const { cookie } = await signedInOperator(t, 'admin');
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operators',
      headers: { cookie },
      payload: { email: 'csrf@ops.example.mn', role: 'support' },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ error: 'csrf_header_missing' });
  });

  it("answers 403 to a listener's token on every /api/admin endpoint", async () => {
    const listener = await createUser(t.db);
    const headers = { ...(await t.authHeader(listener.id)), 'x-tunes-console': '1' };
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(document.paths)
      .filter(([route]) => route.startsWith('/api/admin'))
      .flatMap(([route, methods]) =>
        Object.keys(methods).map((method) => [method.toUpperCase(), route] as const),
      );
    expect(operations.length).toBeGreaterThanOrEqual(30);
    for (const [method, route] of operations) {
      const url = route.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const answer = await t.app.inject({ method: method as 'GET', url, headers, payload: {} });
      expect(answer.statusCode, `${method} ${route}`).toBe(403);
    }
  });

  it('keeps support from vouchers, refunds, operators, dashboard and audit, and content from listeners', async () => {
    const support = await signedInOperator(t, 'support');
    const content = await signedInOperator(t, 'content');
    const adminOnly: [string, string][] = [
      ['GET', '/api/admin/vouchers/batches'],
      ['POST', '/api/admin/vouchers/batches'],
      ['GET', '/api/admin/operators'],
      ['POST', '/api/admin/operators'],
      ['POST', '/api/admin/payments/x/refund'],
      ['GET', '/api/admin/dashboard'],
      ['GET', '/api/admin/audit'],
    ];
    for (const [method, url] of adminOnly) {
      const answer = await consoleCall(
        t,
        support.cookie,
        method as 'GET',
        url,
        method === 'GET' ? undefined : {},
      );
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await consoleCall(t, support.cookie, 'GET', '/api/admin/content')).statusCode).toBe(403);
    expect((await consoleCall(t, content.cookie, 'GET', '/api/admin/users?q=976')).statusCode).toBe(403);
    expect((await consoleCall(t, content.cookie, 'GET', '/api/admin/content')).statusCode).toBe(200);
    expect((await consoleCall(t, support.cookie, 'GET', '/api/admin/users?q=976')).statusCode).toBe(200);
  });

  it('lets an admin add, change and disable operators, and audits it', async () => {
    const admin = await signedInOperator(t, 'admin');
    const made = await consoleCall(t, admin.cookie, 'POST', '/api/admin/operators', {
      email: 'Helper@Ops.example.mn',
      role: 'content',
    });
    expect(made.statusCode, made.body).toBe(201);
    const { operator, setupUrl } = made.json() as {
      operator: { id: string; email: string };
      setupUrl: string;
    };
    expect(operator.email).toBe('helper@ops.example.mn');
    expect(setupUrl).toMatch(/^\/admin\/setup\?token=/);
    const changed = await consoleCall(t, admin.cookie, 'PATCH', `/api/admin/operators/${operator.id}`, {
      role: 'support',
    });
    expect(changed.json()).toMatchObject({ operator: { role: 'support' } });
    const self = await consoleCall(t, admin.cookie, 'PATCH', `/api/admin/operators/${admin.id}`, {
      disabled: true,
    });
    expect(self.statusCode).toBe(409);

    const victim = await signedInOperator(t, 'support');
    const disabled = await consoleCall(t, admin.cookie, 'PATCH', `/api/admin/operators/${victim.id}`, {
      disabled: true,
    });
    expect(disabled.json()).toMatchObject({ operator: { disabled: true } });
    expect((await consoleCall(t, victim.cookie, 'GET', '/api/admin/me')).statusCode).toBe(401);

    const updates = await auditEntries(t, admin.cookie, 'operator.update');
    expect(updates.some((entry) => entry.targetId === victim.id)).toBe(true);
    expect(updates[0]).toMatchObject({ operator: { email: admin.email }, after: { disabled: true } });
    expect(
      (await auditEntries(t, admin.cookie, 'operator.create')).some(
        (entry) => entry.targetId === operator.id,
      ),
    ).toBe(true);
  });
});

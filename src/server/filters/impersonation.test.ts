// Impersonation, table-driven, through a fake authorizer that allows exactly
// the (verb resource/subresource group namespace name) tuples a case lists —
// so every refusal, its 403 text, and the acting user are pinned without RBAC.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Handler, RequestContext, Response } from '../context.js';
import type { Attributes, Authorizer } from '../../authz/authorizer.js';
import type { UserInfo } from '../../authn/user.js';
import { withRecovery } from './recovery.js';
import { withRequestInfo } from './requestinfo.js';
import { withImpersonation } from './impersonation.js';

/** Allows `impersonate` on the listed "resource[/sub] group ns name" keys, everything else the caller does. */
function fakeAuthorizer(allowed: readonly string[], asked: string[]): Authorizer {
  return {
    name: 'fake',
    authorize(a: Attributes) {
      if (!a.isResourceRequest || a.verb !== 'impersonate') return { decision: 'allow', reason: '' };
      const key = `${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.apiGroup} ${a.namespace} ${a.name}`;
      asked.push(`${a.user.name}: ${key}`);
      return allowed.includes(key) ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: '' };
    },
  };
}

function run(headers: [string, string][], allowed: readonly string[], caller: UserInfo = { name: 'impersonator', groups: ['system:authenticated'] }) {
  const out = { status: 0, body: '', headers: {} as Record<string, unknown> };
  let seen: { user: UserInfo; headers: Record<string, unknown> } | undefined;
  const res: Response = {
    statusCode: 200, headersSent: false, writableEnded: false,
    setHeader: (n, v) => (out.headers[n.toLowerCase()] = v), getHeader: (n) => out.headers[n.toLowerCase()],
    write: (c) => ((out.body += String(c)), true), end: (c?: string | Uint8Array) => { if (c) out.body += String(c); },
    once: () => undefined, off: () => undefined,
  };
  const hdrs: Record<string, string> = {};
  for (const [k, v] of headers) hdrs[k.toLowerCase()] = hdrs[k.toLowerCase()] === undefined ? v : `${hdrs[k.toLowerCase()]}, ${v}`;
  const req = { method: 'GET', url: '/api/v1/namespaces/ns/configmaps', headers: hdrs, rawHeaders: headers.flat(), socket: {}, once: () => undefined, async *[Symbol.asyncIterator]() {} };
  const ctx = { req, res, url: new URL(req.url, 'https://x'), user: caller } as unknown as RequestContext;
  const ok: Handler = async (c) => { seen = { user: c.user!, headers: { ...c.req.headers } }; c.res.statusCode = 200; c.res.end('ok'); };
  const asked: string[] = [];
  return { done: withRecovery(withRequestInfo(withImpersonation(ok, fakeAuthorizer(allowed, asked))))(ctx).then(() => ({ status: res.statusCode, body: out.body, contentType: out.headers['content-type'], seen, asked })) };
}

const AUTHN = 'authentication.svc.io';
type Case = {
  name: string;
  headers: [string, string][];
  allowed: string[];
  status: number;
  user?: UserInfo;
  message?: string;
  asked?: string[];
};

const cases: Case[] = [
  { name: 'no headers: the caller', headers: [], allowed: [], status: 200, user: { name: 'impersonator', groups: ['system:authenticated'] } },
  { name: 'empty Impersonate-User is ignored', headers: [['Impersonate-User', '']], allowed: [], status: 200, user: { name: 'impersonator', groups: ['system:authenticated'] } },
  {
    name: 'user without the right', headers: [['Impersonate-User', 'alice']], allowed: [], status: 403,
    message: 'users "alice" is forbidden: User "impersonator" cannot impersonate resource "users" in API group "" at the cluster scope',
  },
  { name: 'user allowed', headers: [['Impersonate-User', 'alice']], allowed: [`users   alice`], status: 200, user: { name: 'alice', groups: ['system:authenticated'] } },
  {
    name: 'user allowed, group refused', headers: [['Impersonate-User', 'alice'], ['Impersonate-Group', 'devs']], allowed: [`users   alice`], status: 403,
    message: 'groups "devs" is forbidden: User "impersonator" cannot impersonate resource "groups" in API group "" at the cluster scope',
  },
  {
    name: 'repeated groups are separate values, each authorized', headers: [['Impersonate-User', 'alice'], ['Impersonate-Group', 'a'], ['impersonate-group', 'b, c']],
    allowed: ['users   alice', 'groups   a', 'groups   b, c'], status: 200, user: { name: 'alice', groups: ['a', 'b, c', 'system:authenticated'] },
    asked: ['impersonator: users   alice', 'impersonator: groups   a', 'impersonator: groups   b, c'],
  },
  {
    name: 'system:unauthenticated requested: no system:authenticated', headers: [['Impersonate-User', 'alice'], ['Impersonate-Group', 'system:unauthenticated']],
    allowed: ['users   alice', 'groups   system:unauthenticated'], status: 200, user: { name: 'alice', groups: ['system:unauthenticated'] },
  },
  { name: 'anonymous gets system:unauthenticated', headers: [['Impersonate-User', 'system:anonymous']], allowed: ['users   system:anonymous'], status: 200, user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } },
  {
    name: 'service account: serviceaccounts in its namespace, its two groups', headers: [['Impersonate-User', 'system:serviceaccount:ns1:robot']],
    allowed: ['serviceaccounts  ns1 robot'], status: 200,
    user: { name: 'system:serviceaccount:ns1:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] },
  },
  {
    name: 'service account with groups: only the requested ones', headers: [['Impersonate-User', 'system:serviceaccount:ns1:robot'], ['Impersonate-Group', 'devs']],
    allowed: ['serviceaccounts  ns1 robot', 'groups   devs'], status: 200, user: { name: 'system:serviceaccount:ns1:robot', groups: ['devs', 'system:authenticated'] },
  },
  {
    name: 'another account is refused in its namespace', headers: [['Impersonate-User', 'system:serviceaccount:other:robot']], allowed: ['serviceaccounts  ns1 robot'], status: 403,
    message: 'serviceaccounts "robot" is forbidden: User "impersonator" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "other"',
  },
  {
    name: 'a malformed service-account name is a plain user', headers: [['Impersonate-User', 'system:serviceaccount:Bad_NS:robot']], allowed: [], status: 403,
    message: 'users "system:serviceaccount:Bad_NS:robot" is forbidden: User "impersonator" cannot impersonate resource "users" in API group "" at the cluster scope',
  },
  {
    name: 'uid and extras (percent-decoded, lower-cased key)', headers: [['Impersonate-User', 'alice'], ['Impersonate-Uid', 'u-1'], ['Impersonate-Extra-Scopes', 'view'], ['Impersonate-Extra-Scopes', 'edit'], ['Impersonate-Extra-example.com%2fTeam', 'x']],
    allowed: ['users   alice', `uids ${AUTHN}  u-1`, `userextras/scopes ${AUTHN}  view`, `userextras/scopes ${AUTHN}  edit`, `userextras/example.com/team ${AUTHN}  x`], status: 200,
    user: { name: 'alice', uid: 'u-1', groups: ['system:authenticated'], extra: { scopes: ['view', 'edit'], 'example.com/team': ['x'] } },
  },
  {
    name: 'uid refused', headers: [['Impersonate-User', 'alice'], ['Impersonate-Uid', 'uid-2']], allowed: ['users   alice'], status: 403,
    message: `uids.${AUTHN} "uid-2" is forbidden: User "impersonator" cannot impersonate resource "uids" in API group "${AUTHN}" at the cluster scope`,
  },
  {
    name: 'extra refused', headers: [['Impersonate-User', 'alice'], ['Impersonate-Extra-Scopes', 'admin']], allowed: ['users   alice'], status: 403,
    message: `userextras.${AUTHN} "admin" is forbidden: User "impersonator" cannot impersonate resource "userextras/scopes" in API group "${AUTHN}" at the cluster scope`,
  },
  {
    name: 'group without user: 400 with kube\'s message', headers: [['Impersonate-Group', 'devs']], allowed: ['groups   devs'], status: 400,
    message: 'requested [{Group  devs    }] without impersonating a user', asked: [],
  },
  {
    name: 'uid and extra without user: 400', headers: [['Impersonate-Uid', 'u'], ['Impersonate-Extra-K', 'v']], allowed: [], status: 400,
    message: `requested [{UserExtra  v  ${AUTHN}/v1  k} {UID  u  ${AUTHN}/v1  }] without impersonating a user`,
  },
  {
    name: 'empty user with a group: 400', headers: [['Impersonate-User', ''], ['Impersonate-Group', 'system:masters']], allowed: [], status: 400,
    message: 'requested [{Group  system:masters    }] without impersonating a user',
  },
  {
    name: 'the first refusal stops the checks', headers: [['Impersonate-User', 'bob'], ['Impersonate-Group', 'system:masters']], allowed: [], status: 403,
    asked: ['impersonator: users   bob'],
  },
];

describe('impersonation', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const r = await run(c.headers, c.allowed).done;
      assert.equal(r.status, c.status, r.body);
      if (c.status === 200) {
        assert.deepEqual(r.seen!.user, c.user);
        assert.deepEqual(Object.keys(r.seen!.headers).filter((h) => h.startsWith('impersonate-') && c.headers.some(([k]) => k.toLowerCase() === h && c.headers.find(([kk]) => kk.toLowerCase() === h)![1] !== '')), [], 'used headers are removed');
      } else {
        const body = JSON.parse(r.body);
        assert.equal(body.kind, 'Status');
        assert.equal(body.code, c.status);
        assert.equal(body.reason, c.status === 403 ? 'Forbidden' : 'BadRequest');
        if (c.message) assert.equal(body.message, c.message);
        assert.equal(r.seen, undefined, 'the handler never ran');
      }
      if (c.asked) assert.deepEqual(r.asked, c.asked);
    });
  }

  it('a 403 names the impersonated object in its details', async () => {
    const r = await run([['Impersonate-User', 'alice']], []).done;
    assert.deepEqual(JSON.parse(r.body).details, { name: 'alice', kind: 'users' });
    const u = await run([['Impersonate-User', 'alice'], ['Impersonate-Uid', 'x']], ['users   alice']).done;
    assert.deepEqual(JSON.parse(u.body).details, { name: 'x', group: AUTHN, kind: 'uids' });
  });
});

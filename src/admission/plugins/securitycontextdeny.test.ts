// SecurityContextDeny: which security contexts are refused, with kube's texts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { SECURITY_CONTEXT_DENY_WARNING, securityContextDeny } from './securitycontextdeny.js';
import { attrs, outcome } from './testutil.js';

function pod(podSC?: Record<string, unknown>, containerSC?: Record<string, unknown>, initSC?: Record<string, unknown>): ApiObject {
  return {
    metadata: { name: 'p' },
    spec: {
      ...(podSC ? { securityContext: podSC } : {}),
      containers: [{ name: 'c', image: 'x', ...(containerSC ? { securityContext: containerSC } : {}) }],
      ...(initSC ? { initContainers: [{ name: 'i', image: 'x', securityContext: initSC }] } : {}),
    },
  };
}
const F = (what: string) => `pods "p" is forbidden: ${what} is forbidden`;

describe('SecurityContextDeny', () => {
  const plugin = securityContextDeny(() => {});
  const rows: [string, ApiObject, string | undefined, Parameters<typeof attrs>[0]?][] = [
    ['no security context', pod(), undefined],
    ['allowed pod fields', pod({ runAsNonRoot: true, runAsGroup: 1 }, { privileged: false, runAsGroup: 2 }), undefined],
    ['pod supplementalGroups (even empty)', pod({ supplementalGroups: [] }), F('pod.Spec.SecurityContext.SupplementalGroups')],
    ['pod seLinuxOptions', pod({ seLinuxOptions: { level: 's0' } }), F('pod.Spec.SecurityContext.SELinuxOptions')],
    ['pod runAsUser', pod({ runAsUser: 0 }), F('pod.Spec.SecurityContext.RunAsUser')],
    ['pod fsGroup', pod({ fsGroup: 2000 }), F('pod.Spec.SecurityContext.FSGroup')],
    ['pod checks come in kube order', pod({ fsGroup: 1, runAsUser: 1, supplementalGroups: [1] }), F('pod.Spec.SecurityContext.SupplementalGroups')],
    ['container seLinuxOptions', pod(undefined, { seLinuxOptions: {} }), F('SecurityContext.SELinuxOptions')],
    ['container runAsUser', pod(undefined, { runAsUser: 1000 }), F('SecurityContext.RunAsUser')],
    ['init container runAsUser', pod(undefined, undefined, { runAsUser: 1000 }), F('SecurityContext.RunAsUser')],
    ['on update too', pod({ runAsUser: 0 }), F('pod.Spec.SecurityContext.RunAsUser'), { operation: 'UPDATE' }],
    ['not on a subresource', pod({ runAsUser: 0 }), undefined, { subresource: 'ephemeralcontainers' }],
  ];
  for (const [what, object, want, extra] of rows) {
    it(what, async () => {
      const st = await outcome(() => plugin.admit(attrs({ object, ...extra })));
      assert.equal(st?.message, want);
      if (want) assert.equal(st?.code, 403);
    });
  }
  it('warns that it is deprecated when built', () => {
    const lines: string[] = [];
    securityContextDeny((l) => lines.push(l));
    assert.deepEqual(lines, [SECURITY_CONTEXT_DENY_WARNING]);
  });
});

// ValidatingAdmissionPolicy (issue 22): the server CPU 50 policies bound to
// ConfigMaps add per create. One `svc server` (SQLite) with the gate on and
// admissionregistration v1alpha1 enabled; phases interleaved (no policies,
// 50 policies + bindings, none, 50…) by creating and deleting the policies
// and their bindings, the best phase of each side kept. Each policy has the
// shape of a typical rule set: matchConstraints on ConfigMap CREATE/UPDATE,
// two validations over the object (one with a messageExpression), a binding
// with a namespaceSelector and validationActions Deny. Target: ≤ 100 µs of
// server CPU added per create.
import { startAdminServer, type AdminServer } from './adminserver.js';
import { fmt } from './report.js';
import { runLoad } from './load.js';

const NS = 'bench-vap';
const POLICIES = '/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicies';
const BINDINGS = '/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicybindings';

type Phase = { rate: number; cpuUs: number };

const policy = (i: number) => ({
  apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicy', metadata: { name: `bench-${i}` },
  spec: {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
    validations: [
      { expression: `object.metadata.name != 'deny-${i}'`, message: `name deny-${i} is not allowed` },
      { expression: '!has(object.data) || object.data.all(k, k.size() <= 253)', messageExpression: "'data keys are at most 253 characters long'" },
    ],
  },
});
const binding = (i: number) => ({
  apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `bench-${i}` },
  spec: { policyName: `bench-${i}`, validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'svc.io/metadata.name': NS } } } },
});
const configMap = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { 'app.properties': 'color=blue\nsize=large\n', owner: 'team-platform' } });

export async function benchVap(opts: { policies?: number; perPhase?: number; rounds?: number } = {}): Promise<string[]> {
  const count = opts.policies ?? 50;
  const perPhase = opts.perPhase ?? 2000;
  const rounds = opts.rounds ?? 3;
  let server: AdminServer | undefined;
  try {
    server = await startAdminServer('vap', ['--feature-gates=ValidatingAdmissionPolicy=true', '--runtime-config=admissionregistration.k8s.io/v1alpha1=true']);
    const { call, must } = server;
    await must('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    let made = 0;
    /** Whether the last policy is in effect: its denied name is refused. */
    const inEffect = async () => (await call('POST', `/api/v1/namespaces/${NS}/configmaps?dryRun=All`, configMap(`deny-${count - 1}`))).status === 422;
    const install = async (on: boolean) => {
      for (let i = 0; i < count; i++) {
        if (on) {
          await must('POST', POLICIES, policy(i));
          await must('POST', BINDINGS, binding(i));
        } else {
          await must('DELETE', `${BINDINGS}/bench-${i}`);
          await must('DELETE', `${POLICIES}/bench-${i}`);
        }
      }
      for (let i = 0; i < 200 && (await inEffect()) !== on; i++) await new Promise((r) => setTimeout(r, 25));
      if ((await inEffect()) !== on) throw new Error(`policies ${on ? 'created' : 'deleted'} but the probe does not show it`);
    };
    const creates = async (total: number, concurrency: number): Promise<Phase> => runLoad(server!.pid, total, concurrency, async () => {
      const r = await call('POST', `/api/v1/namespaces/${NS}/configmaps`, configMap(`cm-${made++}`));
      if (r.status !== 201) throw new Error(`configmap create answered ${r.status}: ${r.body.slice(0, 300)}`);
    });

    await creates(300, 32); // warm-up
    const none: Phase[] = [];
    const withPolicies: Phase[] = [];
    for (let r = 0; r < rounds; r++) {
      none.push(await creates(perPhase, 32));
      await install(true);
      withPolicies.push(await creates(perPhase, 32));
      await install(false);
    }
    const least = (ps: Phase[]) => ps.reduce((x, y) => (y.cpuUs < x.cpuUs ? y : x));
    const a = least(withPolicies);
    const b = least(none);
    const row = (what: string, p: Phase) => `| ${what} | ${perPhase.toLocaleString('en')} ×${rounds} | ${fmt(p.rate, 0)} | ${fmt(p.cpuUs, 0)} |`;
    return [
      `### ValidatingAdmissionPolicy (issue 22): server CPU per ConfigMap create with ${count} policies bound vs none`,
      '',
      `One \`svc server\` on SQLite, the ValidatingAdmissionPolicy gate on; ${count} policies (two validations each, one with a messageExpression) each with a binding (namespaceSelector, Deny) matching every create; 32 keep-alive connections; phases interleaved by creating and deleting the policies and bindings, the least CPU of ${rounds} each.`,
      '',
      '| policies | creates | per second | server CPU µs per create |',
      '|---|---|---|---|',
      row(`${count} bound`, a),
      row('none', b),
      '',
      `- added by ${count} policies: ${fmt(a.cpuUs - b.cpuUs, 0)} µs of server CPU per create (target ≤ 100 µs); rate ${fmt((100 * a.rate) / b.rate, 0)} % of none`,
    ];
  } finally {
    await server?.stop();
  }
}

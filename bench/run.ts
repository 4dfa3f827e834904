// `npm run bench`: runs the benchmarks and appends their figures to bench/RESULTS.md.
// Pass names to run a subset: npm run bench -- storage
import { appendResults } from './report.js';
import { benchStorage } from './storage.js';
import { benchApiServer } from './apiserver.js';
import { benchWatch } from './watch.js';
import { benchApply } from './apply.js';
import { benchValidation } from './validation.js';
import { benchSmd } from './smd.js';
import { benchAuthn } from './authn.js';
import { benchServiceAccountTokens } from './satokens.js';
import { benchRbac } from './rbac.js';
import { benchAdmission } from './admission.js';
import { benchAdmissionInProcess } from './admissioninproc.js';
import { benchWebhooks } from './webhooks.js';
import { benchVap } from './vap.js';
import { benchCel, benchCelConformance } from './cel.js';
import { benchCrd } from './crd.js';
import { benchControllers } from './controllers.js';
import { benchAgent } from './agent.js';
import { benchMetrics } from './metrics.js';
import { benchOperations } from './operations.js';
import { benchFairness } from './fairness.js';
import { benchAudit } from './audit.js';
import { benchApf } from './apf.js';
import { steadiness } from './steadiness.js';

const suites: Record<string, () => Promise<string[]>> = {
  storage: benchStorage, apiserver: benchApiServer, watch: benchWatch, apply: benchApply, validation: benchValidation, smd: async () => benchSmd(),
  authn: benchAuthn, satokens: () => benchServiceAccountTokens(), rbac: () => benchRbac(), admission: () => benchAdmission(), 'admission-inprocess': () => benchAdmissionInProcess(), webhooks: () => benchWebhooks(),
  vap: () => benchVap(),
  cel: () => benchCel(), 'cel-conformance': async () => benchCelConformance(), crd: () => benchCrd(), controllers: () => benchControllers(), agent: () => benchAgent(),
  operations: async () => [...(await benchOperations()), '', ...(await benchFairness())], audit: () => benchAudit(), apf: () => benchApf(), metrics: () => benchMetrics(),
};
const wanted = process.argv.slice(2);
// the machine's own speed before and after, beside the figures (bench/steadiness.ts)
const lines: string[] = [steadiness('before the benchmarks'), ''];
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  lines.push(...(await run()), '');
}
lines.push(steadiness('after them'));
appendResults('npm run bench', lines);
process.exit(0);

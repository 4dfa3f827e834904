// The agent's feature gates. The kubelet shares one gate registry with every
// kube component, so the agent accepts the server's list (src/features/gates.ts:
// the spec's list plus the API server gates of v1.27) with the same stages,
// defaults, AllAlpha/AllBeta and locked GA gates.
//
// The --config file's featureGates and --feature-gates merge per gate, the
// command line winning (kube's kubeletConfigFlagPrecedence).
import { FeatureGateError, FeatureGates, KNOWN_GATES, type GateSpec } from '../../features/gates.js';
import { AgentConfigError } from './errors.js';

export const AGENT_GATES: ReadonlyMap<string, GateSpec> = KNOWN_GATES;

/** The file's gates with the flag's over them. */
export function mergeGates(file: Readonly<Record<string, boolean>>, flags: Readonly<Record<string, boolean>> | undefined): Record<string, boolean> {
  return { ...file, ...(flags ?? {}) };
}

/** Resolves the merged map; unknown gates and locked gates set otherwise are errors (SetFromMap's texts). */
export function resolveGates(gates: Readonly<Record<string, boolean>>): FeatureGates {
  const text = Object.entries(gates)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  try {
    return FeatureGates.parse(text, AGENT_GATES);
  } catch (err) {
    if (err instanceof FeatureGateError) throw new AgentConfigError('validation', err.message);
    throw err;
  }
}

// The agent's configuration: `svc agent` flags and the --config file → AgentConfig.
export { parseAgentArgs, type ParseAgentOptions, type ParsedAgentArgs } from './parse.js';
export { agentUsage } from './usage.js';
export { AgentConfigError, type AgentConfigErrorKind } from './errors.js';
export type { AgentConfig, AgentConfigDerived, AgentFlagsConfig, KubeletConfig } from './types.js';
export type { Threshold, ThresholdValue, EvictionSignal } from './eviction.js';
export type { ResourceMap } from './resources.js';
export type { Taint } from './taints.js';
export { AGENT_GATES } from './gates.js';
/** The flag table (names, aliases, kinds), e.g. to tell agent flags apart on `svc server --agent`'s command line. */
export { AGENT_FLAGS, type AgentFlag } from './flags.js';
export { CONFIG_API_VERSIONS, CONFIG_KIND } from './decode.js';
export { DEFAULT_RUNTIME_ENDPOINT, DEFAULT_ROOT_DIR, DEFAULT_CERT_DIR, DEFAULT_EVICTION_HARD } from './defaults.js';

// The two AgentApi implementations (the seam is src/agent/api.ts): in the
// server's process (inprocess.ts, over views of the shared informers:
// filtered.ts) and over HTTPS as the node itself (remote.ts).
export { inProcessAgentApi } from './inprocess.js';
export { remoteAgentApi } from './remote.js';
export { FilteredCache } from './filtered.js';
export { connectAgent, type ConnectOptions, type Connected } from './connect.js';

// What the agent's server needs from the agent (the pod workers and runtime
// own the answers): the pods it runs and where a container's log is.
import type { ApiObject } from '../../registry/object.js';

export interface ContainerLog {
  /** The CRI log file. */
  readonly path: string;
  /** Whether the container still runs (a follow ends once it does not). */
  running(): Promise<boolean>;
}

export interface AgentHost {
  /** The pods the agent runs (static pods included), as the API shows them. */
  pods(): readonly ApiObject[];
  /**
   * The log of a container of one of those pods, or of its previous instance.
   * Throws LogUnavailable with kube's text when there is none yet ("container
   * "x" in pod "y" is waiting to start: ContainerCreating", "previous
   * terminated container "x" in pod "y" not found").
   */
  logPath(namespace: string, pod: string, container: string, previous: boolean): Promise<ContainerLog>;
  /** The sync loop's health for /healthz (kube's `syncloop` check); undefined: healthy. */
  unhealthy?(): string | undefined;
}

/** No log to read for a request (answered 400 with this message, as the kubelet). */
export class LogUnavailable extends Error {
  override readonly name = 'LogUnavailable';
}

// The exec probe: the command runs in the container through CRI ExecSync
// with the probe's timeout. Exit 0 is success, another exit a failure (the
// output is stdout then stderr, at most 10 KiB); a runtime deadline is a
// failure too (kube's ExecProbeTimeout, on since 1.20) with kube's text
// `command "…" timed out` — with the gate off a timeout is an error, so the
// result is thrown away as before 1.20; any other runtime error is an error.
import { CriError, type RuntimeService } from '../cri/types.js';
import { goQuote, grpcErrorText } from './goformat.js';
import { ProbeError, type ProbeOutcome } from './types.js';

/** kube's maxReadLength for exec probe output. */
export const EXEC_MAX_OUTPUT = 10 * 1024;

/** gRPC DeadlineExceeded. */
const DEADLINE_EXCEEDED = 4;

/** The runtime's id of a container from its status `containerID` (`containerd://abc` → `abc`). */
export const runtimeContainerId = (containerID: string): string => {
  const at = containerID.indexOf('://');
  return at < 0 ? containerID : containerID.slice(at + 3);
};

export async function execProbe(
  runtime: RuntimeService, containerID: string, command: readonly string[], timeoutSeconds: number, execProbeTimeout = true,
): Promise<ProbeOutcome> {
  let res;
  try {
    res = await runtime.execSync(runtimeContainerId(containerID), command, timeoutSeconds);
  } catch (err) {
    if (err instanceof CriError && err.code === DEADLINE_EXCEEDED) {
      const text = `command ${goQuote(command.join(' '))} timed out`;
      if (execProbeTimeout) return { result: 'Failure', output: text };
      throw new ProbeError(text);
    }
    if (err instanceof CriError) throw new ProbeError(grpcErrorText(err.code, err.message));
    throw new ProbeError(err instanceof Error ? err.message : String(err));
  }
  const output = Buffer.concat([res.stdout, res.stderr]).subarray(0, EXEC_MAX_OUTPUT).toString('utf8');
  return { result: res.exitCode === 0 ? 'Success' : 'Failure', output };
}

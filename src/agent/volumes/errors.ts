// What a failed volume set-up reports, as the kubelet reports it: a
// `FailedMount` event on the pod whose message is the kubelet's, while the pod
// waits in ContainerCreating. Two shapes, as kube has two places that fail:
//   set-up of one volume (the operation executor):
//     MountVolume.SetUp failed for volume "x" : configmap "y" not found
//   processing the pod's volumes (the desired-state populator: PVCs, unknown
//   plugins), reported by the volume manager's wait:
//     Unable to attach or mount volumes: unmounted volumes=[a b], unattached volumes=[],
//       failed to process volumes=[b]: error processing PVC ns/c: PVC is not bound

/** The event reason of every volume failure. */
export const FAILED_MOUNT = 'FailedMount';

/** One volume that could not be set up. `detail` is the plugin's error; `message` the event text. */
export class VolumeSetupError extends Error {
  override readonly name = 'VolumeSetupError';
  readonly reason = FAILED_MOUNT;
  constructor(
    readonly volume: string,
    readonly detail: string,
    /** 'setup': the plugin's SetUp failed; 'process': the volume could not be resolved (PVC, no plugin). */
    readonly stage: 'setup' | 'process',
  ) {
    super(stage === 'setup' ? `MountVolume.SetUp failed for volume ${JSON.stringify(volume)} : ${detail}` : detail);
  }
}

/** A plugin-level failure: carries the plugin's error text (kube's `err.Error()`). */
export class PluginError extends Error {
  override readonly name = 'PluginError';
}

/** Some of a pod's volumes are not ready: the pod must wait. `events` are the FailedMount messages to record. */
export class PodVolumesError extends Error {
  override readonly name = 'PodVolumesError';
  readonly reason = FAILED_MOUNT;
  readonly events: readonly string[];
  constructor(
    readonly failures: readonly VolumeSetupError[],
    /** Every volume of the pod not ready (in spec order). */
    unmounted: readonly string[],
  ) {
    const events = failures.filter((f) => f.stage === 'setup').map((f) => f.message);
    const processing = failures.filter((f) => f.stage === 'process');
    if (processing.length > 0) {
      const names = processing.map((f) => f.volume).join(' ');
      events.push(
        `Unable to attach or mount volumes: unmounted volumes=[${unmounted.join(' ')}], unattached volumes=[], failed to process volumes=[${names}]: ${processing.map((f) => f.detail).join('; ')}`,
      );
    }
    super(events.join('\n'));
    this.events = events;
  }
}

/** A Node.js system error's message as Go's os package prints it (`stat /x: no such file or directory`). */
export function goOsError(op: string, path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const text: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    ENOTDIR: 'not a directory',
    EEXIST: 'file exists',
    EISDIR: 'is a directory',
    EPERM: 'operation not permitted',
  };
  return `${op} ${path}: ${(code && text[code]) ?? (err instanceof Error ? err.message : String(err))}`;
}

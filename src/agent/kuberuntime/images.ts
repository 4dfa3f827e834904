// Making sure a container's image is there (kube's imageManager.EnsureImageExists):
//   tag defaulted (`:latest`) → ImageStatus → pull per imagePullPolicy
//     Never + absent        → ErrImageNeverPull
//     Always / IfNotPresent + absent → PullImage; a failure → ErrImagePull, then
//       ImagePullBackOff while the per-image back-off (10 s doubling to 5 min) runs
// with kube's Events on the container. No registry is reachable on our
// machines: images are imported, and a pull fails with the runtime's error.
import type { ImageService } from '../cri/types.js';
import type { Backoff } from './backoff.js';
import { Reasons, type EventSink } from './events.js';
import { goDuration, type Container, type Pod } from './types.js';

export type ImageErrorReason = 'ErrImagePull' | 'ImagePullBackOff' | 'ErrImageNeverPull' | 'InvalidImageName' | 'ImageInspectError';

/** The image could not be made ready: reason and message become the container's waiting state. */
export class ImageError extends Error {
  override readonly name = 'ImageError';
  /** When a retry may succeed (the pull back-off's end), in ms from now. */
  constructor(readonly reason: ImageErrorReason, message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}

const REF = /^(?:(?:[a-zA-Z0-9-]+\.)*[a-zA-Z0-9-]+(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$/;

/** The image with `:latest` when it has neither tag nor digest (kube's applyDefaultImageTag). */
export function defaultImageTag(image: string): string {
  if (!REF.test(image)) throw new Error(`couldn't parse image reference "${image}": invalid reference format`);
  if (image.includes('@')) return image;
  const last = image.slice(image.lastIndexOf('/') + 1);
  return last.includes(':') ? image : `${image}:latest`;
}

export function shouldPullImage(container: Container, present: boolean): boolean {
  const policy = container.imagePullPolicy ?? 'IfNotPresent';
  if (policy === 'Never') return false;
  return policy === 'Always' || !present;
}

export interface ImagePullerOptions {
  readonly images: ImageService;
  readonly events: EventSink;
  readonly backoff: Backoff;
}

export class ImagePuller {
  constructor(private readonly opts: ImagePullerOptions) {}

  /** The image reference to create the container from; throws ImageError. */
  async ensure(pod: Pod, container: Container, fieldPath: string): Promise<string> {
    const { images, events, backoff } = this.opts;
    const shown = container.image ?? '';
    const record = (type: 'Normal' | 'Warning', reason: string, message: string): void => events.event(pod, type, reason, message, fieldPath);
    let image: string;
    try {
      image = defaultImageTag(shown);
    } catch (err) {
      const msg = `Failed to apply default image tag "${shown}": ${(err as Error).message}`;
      record('Warning', Reasons.InspectFailed, msg);
      throw new ImageError('InvalidImageName', msg);
    }
    let ref = '';
    try {
      ref = (await images.imageStatus(image))?.id ?? '';
    } catch (err) {
      const msg = `Failed to inspect image "${shown}": ${(err as Error).message}`;
      record('Warning', Reasons.InspectFailed, msg);
      throw new ImageError('ImageInspectError', msg);
    }
    const present = ref !== '';
    if (!shouldPullImage(container, present)) {
      if (present) {
        record('Normal', Reasons.Pulled, `Container image "${shown}" already present on machine`);
        return ref;
      }
      const msg = `Container image "${shown}" is not present with pull policy of Never`;
      record('Warning', Reasons.ErrImageNeverPull, msg);
      throw new ImageError('ErrImageNeverPull', msg);
    }
    const key = `${pod.metadata.uid}_${shown}`;
    if (backoff.inBackOffSinceUpdate(key, backoff.now())) {
      const msg = `Back-off pulling image "${shown}"`;
      record('Normal', Reasons.BackOff, msg);
      throw new ImageError('ImagePullBackOff', msg, backoff.remainingSinceUpdate(key));
    }
    record('Normal', Reasons.Pulling, `Pulling image "${shown}"`);
    const start = backoff.now();
    let pulled: string;
    try {
      pulled = await images.pullImage(image);
    } catch (err) {
      const message = (err as Error).message;
      record('Warning', Reasons.Failed, `Failed to pull image "${shown}": ${message}`);
      backoff.next(key, backoff.now());
      throw new ImageError('ErrImagePull', message, backoff.remainingSinceUpdate(key));
    }
    const took = goDuration(backoff.now() - start);
    record('Normal', Reasons.Pulled, `Successfully pulled image "${shown}" in ${took} (${took} including waiting)`);
    backoff.gc();
    return pulled;
  }
}

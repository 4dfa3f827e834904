// What a container runtime reports for an image and a container: the image
// reference as containerd normalizes it ("nginx" → "docker.io/library/nginx:latest"),
// an imageID with a digest, and a containerID — the digests and ids made up
// but stable for the same input.
import { createHash } from 'node:crypto';

/** The image as containerd reports it in containerStatuses[].image. */
export function normalizeImage(image: string): string {
  if (image === '') return image;
  const firstSlash = image.indexOf('/');
  const first = firstSlash < 0 ? '' : image.slice(0, firstSlash);
  // a first component with a dot, a colon or "localhost" is a registry
  const hasRegistry = first !== '' && (first.includes('.') || first.includes(':') || first === 'localhost');
  let ref = hasRegistry ? image : firstSlash < 0 ? `docker.io/library/${image}` : `docker.io/${image}`;
  const lastPart = ref.slice(ref.lastIndexOf('/') + 1);
  if (!ref.includes('@') && !lastPart.includes(':')) ref += ':latest';
  return ref;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** containerStatuses[].imageID: the repository with a digest. */
export function imageID(image: string): string {
  const ref = normalizeImage(image);
  const at = ref.indexOf('@');
  if (at >= 0) return ref;
  const repo = ref.slice(0, ref.lastIndexOf(':') > ref.lastIndexOf('/') ? ref.lastIndexOf(':') : ref.length);
  return `${repo}@sha256:${sha256(`image:${ref}`)}`;
}

/** containerStatuses[].containerID of one run of a container. */
export const containerID = (podUID: string, container: string, restartCount: number): string =>
  `containerd://${sha256(`container:${podUID}/${container}/${restartCount}`)}`;

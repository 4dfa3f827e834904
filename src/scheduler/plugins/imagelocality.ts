// ImageLocality: nodes that already hold the pod's container images score
// higher, by the images' sizes scaled by how widely they are spread (so one
// node holding an image everyone has is no better than another), between
// 23 MB and 1000 MB per container.
import type { Plugin } from '../framework.js';
import { MAX_NODE_SCORE } from '../framework.js';
import { normalizedImageName } from '../nodeinfo.js';
import { containerImages } from '../pods.js';

const MB = 1024 * 1024;
const MIN_THRESHOLD = 23 * MB;
const MAX_CONTAINER_THRESHOLD = 1000 * MB;

export function imagePriority(sum: number, containers: number): number {
  const max = MAX_CONTAINER_THRESHOLD * containers;
  const clamped = Math.min(Math.max(sum, MIN_THRESHOLD), max);
  if (max <= MIN_THRESHOLD) return 0;
  return Math.trunc((MAX_NODE_SCORE * (clamped - MIN_THRESHOLD)) / (max - MIN_THRESHOLD));
}

export function imageLocality(): Plugin {
  return {
    name: 'ImageLocality',
    score(state, pod, node) {
      const total = state.snapshot.nodes.length;
      const images = containerImages(pod);
      let sum = 0;
      for (const image of images) {
        const st = node.images.get(normalizedImageName(image));
        if (st && total > 0) sum += Math.trunc(st.size * (st.numNodes / total));
      }
      return imagePriority(sum, images.length);
    },
  };
}

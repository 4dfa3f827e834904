// The in-tree plugins by name (kube's pkg/scheduler/framework/plugins
// registry) and v1.27's default profile: the plugins at each extension point
// in order, with the score weights (TaintToleration 3, NodeAffinity 2,
// PodTopologySpread 2, InterPodAffinity 2, the others 1). Names kube knows
// whose plugin is not built here are listed, so a configuration naming them
// gets a clear refusal instead of "does not exist".
import type { Plugin } from '../framework.js';
import { imageLocality } from './imagelocality.js';
import { interPodAffinity, type NamespaceLabels } from './interpodaffinity.js';
import { nodeAffinity } from './nodeaffinity.js';
import { nodeNamePlugin } from './nodename.js';
import { nodePorts } from './nodeports.js';
import { nodeResourcesBalancedAllocation, nodeResourcesFit, type FitArgs } from './noderesources.js';
import { nodeUnschedulable } from './nodeunschedulable.js';
import { podTopologySpread, type SpreadArgs } from './podtopologyspread.js';
import { taintToleration } from './tainttoleration.js';
import type { SpreadSelectors } from '../spreading.js';
import type { ApiObject } from '../../registry/object.js';
import type { VolumeHandle } from '../volumes.js';
import { volumeBinding, type VolumeBindingArgs } from './volumebinding.js';
import { volumeRestrictions } from './volumerestrictions.js';
import { volumeZone } from './volumezone.js';
import { nodeVolumeLimits, type CSINodes } from './nodevolumelimits.js';

export interface PluginHandle {
  /** What PodTopologySpread's system defaults read: the services and controllers selecting a pod. */
  readonly selectors: SpreadSelectors;
  /** Namespaces' labels, for affinity terms' namespaceSelector. */
  readonly namespaceLabels: NamespaceLabels;
  /** Claims, volumes and storage classes, for the volume plugins. */
  readonly volumes: VolumeHandle & CSINodes;
}

export type PluginFactory = (args: Record<string, unknown>, handle: PluginHandle) => Plugin;

export const PLUGIN_FACTORIES: Readonly<Record<string, PluginFactory>> = {
  NodeUnschedulable: () => nodeUnschedulable(),
  NodeName: () => nodeNamePlugin(),
  TaintToleration: () => taintToleration(),
  NodeAffinity: () => nodeAffinity(),
  NodePorts: () => nodePorts(),
  NodeResourcesFit: (args) => nodeResourcesFit(args as FitArgs),
  NodeResourcesBalancedAllocation: (args) => nodeResourcesBalancedAllocation(args as { resources?: { name: string }[] }),
  ImageLocality: () => imageLocality(),
  PodTopologySpread: (args, handle) => podTopologySpread(args as SpreadArgs, handle.selectors),
  VolumeRestrictions: (_args, handle) => volumeRestrictions(handle.volumes),
  VolumeBinding: (args, handle) => volumeBinding(handle.volumes, args as VolumeBindingArgs),
  VolumeZone: (_args, handle) => volumeZone(handle.volumes),
  NodeVolumeLimits: (_args, handle) => nodeVolumeLimits(handle.volumes, handle.volumes),
  InterPodAffinity: (args, handle) => interPodAffinity(args as { hardPodAffinityWeight?: number }, handle.namespaceLabels),
};

/** Plugins kube v1.27 has that are not built here (a configuration enabling one is refused). */
export const NOT_IMPLEMENTED = new Set([
  'EBSLimits', 'GCEPDLimits', 'AzureDiskLimits', 'SchedulingGates', 'DynamicResources', 'NodeResourcesLeastAllocated', 'SelectorSpread', 'CinderLimits',
]);

/** The framework's own plugins: always the queue sort, preemption and binder of a profile. */
export const BUILT_IN = new Set(['PrioritySort', 'DefaultPreemption', 'DefaultBinder']);

export interface DefaultPlugin {
  readonly name: string;
  readonly weight?: number;
}

/** v1.27's default MultiPoint set, in order. */
export const DEFAULT_PLUGINS: readonly DefaultPlugin[] = [
  { name: 'PrioritySort' },
  { name: 'NodeUnschedulable' },
  { name: 'NodeName' },
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodePorts' },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'VolumeRestrictions' },
  { name: 'EBSLimits' },
  { name: 'GCEPDLimits' },
  { name: 'NodeVolumeLimits' },
  { name: 'AzureDiskLimits' },
  { name: 'VolumeBinding' },
  { name: 'VolumeZone' },
  { name: 'PodTopologySpread', weight: 2 },
  { name: 'InterPodAffinity', weight: 2 },
  { name: 'DefaultPreemption' },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
  { name: 'DefaultBinder' },
];

/** Which extension points each plugin implements (kube's plugins' interfaces). */
export const EXTENSION_POINTS: Readonly<Record<string, readonly ('filter' | 'score' | 'postFilter')[]>> = {
  NodeUnschedulable: ['filter'],
  NodeName: ['filter'],
  TaintToleration: ['filter', 'score'],
  NodeAffinity: ['filter', 'score'],
  NodePorts: ['filter'],
  NodeResourcesFit: ['filter', 'score'],
  NodeResourcesBalancedAllocation: ['score'],
  ImageLocality: ['score'],
  PodTopologySpread: ['filter', 'score'],
  InterPodAffinity: ['filter', 'score'],
  VolumeRestrictions: ['filter'],
  VolumeBinding: ['filter'],
  VolumeZone: ['filter'],
  NodeVolumeLimits: ['filter'],
  DefaultPreemption: ['postFilter'],
};

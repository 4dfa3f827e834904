// Printers of the storage group: storage classes, volume attachments, CSI
// drivers, CSI nodes, CSI storage capacities.
import { AGE_COLUMN, NAME_COLUMN, age, annotationOrLabel, arr, col, has, meta, nameOf, quantity, rec, spec, status, str, strMap } from './cells.js';
import type { Printer } from './table.js';

const isDefaultClass = (annotations: unknown): boolean => {
  const m = strMap(annotations);
  return annotationOrLabel(m, 'storageclass.kubernetes.io/is-default-class') === 'true'
    || annotationOrLabel(m, 'storageclass.beta.kubernetes.io/is-default-class') === 'true';
};

const boolOr = (v: unknown, dflt: boolean): boolean => (typeof v === 'boolean' ? v : dflt);

export const storageClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Provisioner', 'string', 'The volume plugin that provisions volumes of this class.'),
    col('ReclaimPolicy', 'string', 'The reclaim policy of the volumes it provisions.'),
    col('VolumeBindingMode', 'string', 'When claims are bound: Immediate or WaitForFirstConsumer.'),
    col('AllowVolumeExpansion', 'string', 'Whether its volumes may be resized.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => ({
    cells: [
      isDefaultClass(meta(o).annotations) ? `${nameOf(o)} (default)` : nameOf(o), str(o.provisioner), str(o.reclaimPolicy) || 'Delete',
      str(o.volumeBindingMode) || 'Immediate', boolOr(o.allowVolumeExpansion, false), age(o, now),
    ],
  }),
};

export const volumeAttachmentPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Attacher', 'string', 'The volume driver that attaches the volume.', { format: 'name' }),
    col('PV', 'string', 'The persistent volume to attach.'),
    col('Node', 'string', 'The node to attach the volume to.'),
    col('Attached', 'boolean', 'Whether the volume is attached.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    return { cells: [nameOf(o), str(sp.attacher), str(rec(sp.source).persistentVolumeName), str(sp.nodeName), boolOr(status(o).attached, false), age(o, now)] };
  },
};

export const csiDriverPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('AttachRequired', 'boolean', 'Whether volumes must be attached before they are mounted.'),
    col('PodInfoOnMount', 'boolean', 'Whether the driver is told about the pod when mounting.'),
    col('StorageCapacity', 'boolean', 'Whether scheduling considers the capacity the driver reports.'),
    col('TokenRequests', 'string', 'Audiences of the service account tokens the driver receives.'),
    col('RequiresRepublish', 'boolean', 'Whether the driver wants mounted volumes published again periodically.'),
    col('Modes', 'string', 'The volume lifecycle modes the driver supports.'),
    AGE_COLUMN,
  ],
  row: (o, { now }) => {
    const sp = spec(o);
    const modes = arr(sp.volumeLifecycleModes).map(str).join(',');
    const tokenRequests = Array.isArray(sp.tokenRequests) ? sp.tokenRequests.map((t) => str(rec(t).audience)).join(',') : '<unset>';
    return {
      cells: [
        nameOf(o), boolOr(sp.attachRequired, true), boolOr(sp.podInfoOnMount, false), boolOr(sp.storageCapacity, false),
        tokenRequests, boolOr(sp.requiresRepublish, false), modes === '' ? '<none>' : modes, age(o, now),
      ],
    };
  },
};

export const csiNodePrinter: Printer = {
  columns: [NAME_COLUMN, col('Drivers', 'integer', 'How many CSI drivers the node has registered.'), AGE_COLUMN],
  row: (o, { now }) => ({ cells: [nameOf(o), arr(spec(o).drivers).length, age(o, now)] }),
};

export const csiStorageCapacityPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('StorageClassName', 'string', 'The storage class the capacity is for.'),
    col('Capacity', 'string', 'The capacity the driver reports.'),
  ],
  row: (o) => ({ cells: [nameOf(o), str(o.storageClassName), has(o.capacity) ? quantity(o.capacity) : '<unset>'] }),
};

export const storagePrinters: Readonly<Record<string, Printer>> = {
  storageclasses: storageClassPrinter,
  volumeattachments: volumeAttachmentPrinter,
  csidrivers: csiDriverPrinter,
  csinodes: csiNodePrinter,
  csistoragecapacities: csiStorageCapacityPrinter,
};

// storage/v1 VolumeAttachment: a request to attach a volume to a node, and
// the attacher's report.
import { bool, kind, mapOf, obj, ref, str, Time } from '../../../schema/index.js';
import { PersistentVolumeSpec } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.storage.v1';

export const VolumeAttachmentSource = obj({
  persistentVolumeName: str().proto(1, { keepZero: true }).desc('The PersistentVolume to attach.'),
  inlineVolumeSpec: ref(PersistentVolumeSpec).proto(2).desc('An inline volume translated from an in-tree plugin to CSI.'),
})
  .id(`${PKG}.VolumeAttachmentSource`)
  .desc('The volume to attach: a PersistentVolume or an inline spec.');

export const VolumeAttachmentSpec = obj({
  attacher: str().proto(1, { keepZero: true }).required().desc('The attacher, as the volume driver names it.'),
  source: ref(VolumeAttachmentSource).proto(2).required().desc('The volume to attach.'),
  nodeName: str().proto(3, { keepZero: true }).required().desc('The node to attach the volume to.'),
})
  .id(`${PKG}.VolumeAttachmentSpec`)
  .desc('Which volume to attach to which node, by whom.');

export const VolumeError = obj({
  time: ref(Time).proto(1, { always: true }).desc('When the error occurred.'),
  message: str().proto(2).desc('What went wrong; may be shown to users.'),
})
  .id(`${PKG}.VolumeError`)
  .desc('An error of an attach or detach operation.');

export const VolumeAttachmentStatus = obj({
  attached: bool().proto(1, { always: true }).required().desc('Whether the volume is attached.'),
  attachmentMetadata: mapOf(str()).proto(2).desc('Information from a successful attach, for the mount step.'),
  attachError: ref(VolumeError).proto(3).desc('The last attach error, if any.'),
  detachError: ref(VolumeError).proto(4).desc('The last detach error, if any.'),
})
  .id(`${PKG}.VolumeAttachmentStatus`)
  .desc('The state of an attachment, written by the attacher.');

export const VolumeAttachment = kind(
  {
    spec: ref(VolumeAttachmentSpec).proto(2).desc('The attachment wanted.'),
    status: ref(VolumeAttachmentStatus).proto(3).desc('The attachment\'s state.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.VolumeAttachment`)
  .desc('The intent to attach a volume to a node.');

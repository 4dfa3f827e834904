// storage/v1 VolumeAttachment: a request to attach a volume to a node, and
// the attacher's report.
import { bool, kind, mapOf, obj, ref, str, Time } from '../../../schema/index.js';
import { PersistentVolumeSpec } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.storage.v1';

export const VolumeAttachmentSource = obj({
  persistentVolumeName: str().desc('The PersistentVolume to attach.'),
  inlineVolumeSpec: ref(PersistentVolumeSpec).desc('An inline volume translated from an in-tree plugin to CSI.'),
})
  .id(`${PKG}.VolumeAttachmentSource`)
  .desc('The volume to attach: a PersistentVolume or an inline spec.');

export const VolumeAttachmentSpec = obj({
  attacher: str().required().desc('The attacher, as the volume driver names it.'),
  source: ref(VolumeAttachmentSource).required().desc('The volume to attach.'),
  nodeName: str().required().desc('The node to attach the volume to.'),
})
  .id(`${PKG}.VolumeAttachmentSpec`)
  .desc('Which volume to attach to which node, by whom.');

export const VolumeError = obj({
  time: ref(Time).desc('When the error occurred.'),
  message: str().desc('What went wrong; may be shown to users.'),
})
  .id(`${PKG}.VolumeError`)
  .desc('An error of an attach or detach operation.');

export const VolumeAttachmentStatus = obj({
  attached: bool().required().desc('Whether the volume is attached.'),
  attachmentMetadata: mapOf(str()).desc('Information from a successful attach, for the mount step.'),
  attachError: ref(VolumeError).desc('The last attach error, if any.'),
  detachError: ref(VolumeError).desc('The last detach error, if any.'),
})
  .id(`${PKG}.VolumeAttachmentStatus`)
  .desc('The state of an attachment, written by the attacher.');

export const VolumeAttachment = kind(
  {
    spec: ref(VolumeAttachmentSpec).desc('The attachment wanted.'),
    status: ref(VolumeAttachmentStatus).desc('The attachment\'s state.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.VolumeAttachment`)
  .desc('The intent to attach a volume to a node.');

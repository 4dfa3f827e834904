// storage/v1: CSIDriver, CSINode, CSIStorageCapacity, StorageClass, VolumeAttachment.
import type { S } from '../../../schema/index.js';
import { CSIDriver, CSINode, CSIStorageCapacity } from './csi.js';
import { StorageClass } from './storageclass.js';
import { VolumeAttachment } from './volumeattachment.js';

export const kinds: Readonly<Record<string, S>> = { CSIDriver, CSINode, CSIStorageCapacity, StorageClass, VolumeAttachment };

// The agent's volumes: see README.md.
export { VolumeManager, type MountedVolume, type VolumeManagerOptions } from './manager.js';
export { FAILED_MOUNT, PodVolumesError, VolumeSetupError } from './errors.js';
export { PLUGIN_DIRS, podDir, podVolumesDir, volumeDir } from './paths.js';
export { LOCAL_PATH_PROVISIONER } from './pvc.js';

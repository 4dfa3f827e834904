// Custom resources served from CustomResourceDefinitions: the controller
// (controller.ts) with the server's pieces wired in — validation of each
// version, its printer, and discovery told of every change.
import type { Store } from '../../storage/interface.js';
import type { Registry } from '../../registry/registry.js';
import type { Discovery } from '../../endpoints/discovery.js';
import { DEFAULT_PRINTER } from '../../printers/index.js';
import { CrdController } from './controller.js';
import { versionValidator } from './validation.js';

export { CrdController, CRD_GROUP, CRD_RESOURCE } from './controller.js';

export function customResources(registry: Registry, storage: Store, discovery: Discovery): CrdController {
  return new CrdController({
    registry,
    storage,
    validator: (_crd, v) => versionValidator(v.schema?.openAPIV3Schema),
    printer: () => DEFAULT_PRINTER,
    onServedChanged: (resources) => discovery.setCustomResources(resources),
  });
}

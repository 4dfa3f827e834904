// Custom resources served from CustomResourceDefinitions: the controller
// (controller.ts) with the server's pieces wired in — validation of each
// version, its printer, and discovery told of every change.
import type { Store } from '../../storage/interface.js';
import type { Registry } from '../../registry/registry.js';
import type { Discovery } from '../../endpoints/discovery.js';
import type { OpenAPIService } from '../../openapi/service.js';
import { DEFAULT_PRINTER } from '../../printers/index.js';
import { CrdController } from './controller.js';
import { versionValidator } from './validation.js';

export { CrdController, CRD_GROUP, CRD_RESOURCE } from './controller.js';

export function customResources(registry: Registry, storage: Store, out: { discovery: Discovery; openapi: OpenAPIService }): CrdController {
  return new CrdController({
    registry,
    storage,
    validator: (_crd, v) => versionValidator(v.schema?.openAPIV3Schema),
    printer: () => DEFAULT_PRINTER,
    onServedChanged: (resources, established) => {
      out.discovery.setCustomResources(resources);
      out.openapi.setCustomResources(established);
    },
  });
}

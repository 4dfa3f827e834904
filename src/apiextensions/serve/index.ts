// Custom resources served from CustomResourceDefinitions: the controller
// (controller.ts) with the server's pieces wired in — validation of each
// version, its printer, and discovery told of every change.
import type { Store } from '../../storage/interface.js';
import type { Registry } from '../../registry/registry.js';
import type { Discovery } from '../../endpoints/discovery.js';
import type { OpenAPIService } from '../../openapi/service.js';
import { columnsForVersion, tableConvertor } from '../printers/index.js';
import { CrdController } from './controller.js';
import { versionValidator } from './validation.js';
import { compileCrdRules, rulesNotCheckedError } from '../cel/index.js';
import { AdmissionCallbackClient, endpointsResolver } from '../../webhook/index.js';

export { CrdController, CRD_GROUP, CRD_RESOURCE } from './controller.js';

export function customResources(registry: Registry, storage: Store, out: { discovery: Discovery; openapi: OpenAPIService }): CrdController {
  return new CrdController({
    registry,
    storage,
    validator: (crd, v, structural) => {
      const schema = v.schema?.openAPIV3Schema;
      const rules = schema ? compileCrdRules(schema) : null;
      return versionValidator({
        group: crd.spec.group, version: v.name, kind: (crd.status?.acceptedNames ?? crd.spec.names).kind,
        schema, structural, ...(v.subresources?.scale ? { scale: v.subresources.scale } : {}),
      }, rules ? { rules: (o, old) => rules.validate(o, old).errors, rulesSkipped: rulesNotCheckedError } : {});
    },
    printer: (v) => tableConvertor(columnsForVersion(v)),
    // conversion webhooks: the outbound callback client (service references resolved as admission's are)
    conversionCaller: new AdmissionCallbackClient({ resolveService: endpointsResolver(registry), userAgent: 'svc-apiserver-conversion' }),
    onServedChanged: (resources, established) => {
      out.discovery.setCustomResources(resources);
      out.openapi.setCustomResources(established);
    },
  });
}

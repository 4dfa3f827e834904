// The local-path StorageClass, created once (as k3s deploys its
// local-storage class): on the provisioner's first start, when no class of
// that name exists, it is created — marked the default class only when no
// other class is — and a ConfigMap svc-system/local-path-provisioner records
// that this was done. Later starts see the record and leave classes alone,
// so an admin's delete or change of the class stands (delete the ConfigMap
// to have it made again). Written as the server's own write (the bootstrap
// namespaces' way): no controller's role may create StorageClasses.
import { isStatusError } from '../../api/meta/index.js';
import { schemaFor } from '../../api/schemas.js';
import { defaulterFor } from '../../api/defaults.js';
import { trackWrite } from '../../endpoints/fieldmanager.js';
import { DEFAULT_GATES } from '../../features/gates.js';
import type { ApiObject } from '../../registry/object.js';
import type { Registry } from '../../registry/registry.js';
import { CONTROLLER_NAMESPACE } from '../client.js';
import { isDefaultClass } from './annotations.js';
import { localPathClass } from './localpath.js';

export const RECORD_NAME = 'local-path-provisioner';
const MANAGER = 'svc-local-path-provisioner';

export type EnsureResult = 'created' | 'existed' | 'recorded-before';

const missing = (err: unknown): boolean => isStatusError(err) && err.status.code === 404;
const exists = (err: unknown): boolean => isStatusError(err) && err.status.reason === 'AlreadyExists';

async function serverCreate(registry: Registry, group: string, resource: string, kind: string, namespace: string, obj: ApiObject): Promise<void> {
  const apiVersion = group === '' ? 'v1' : `${group}/v1`;
  const schema = schemaFor(group, 'v1', kind);
  defaulterFor(group, 'v1', kind, DEFAULT_GATES)?.(obj);
  const track = (live: ApiObject | undefined, next: ApiObject) => trackWrite({ manager: MANAGER, apiVersion, kind, schema }, live, next);
  try {
    await registry.store(group, resource).create(namespace, obj, { dryRun: false, track });
  } catch (err) {
    if (!exists(err)) throw err;
  }
}

export async function ensureLocalPathClass(registry: Registry, o: { className: string; provisioner: string }): Promise<EnsureResult> {
  const configmaps = registry.store('', 'configmaps');
  const recorded = await configmaps.get(CONTROLLER_NAMESPACE, RECORD_NAME).then(() => true, (err) => (missing(err) ? false : Promise.reject(err)));
  if (recorded) return 'recorded-before';
  const classes = registry.store('storage.svc.io', 'storageclasses');
  const { items } = await classes.list('');
  let result: EnsureResult = 'existed';
  if (!items.some((c) => c.metadata.name === o.className)) {
    const markDefault = !items.some(isDefaultClass);
    await serverCreate(registry, 'storage.svc.io', 'storageclasses', 'StorageClass', '', localPathClass(o.className, o.provisioner, markDefault));
    result = 'created';
  }
  await serverCreate(registry, '', 'configmaps', 'ConfigMap', CONTROLLER_NAMESPACE, {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: RECORD_NAME, namespace: CONTROLLER_NAMESPACE },
    data: { storageClass: o.className, provisioner: o.provisioner, note: 'the StorageClass was set up once; delete this ConfigMap to have it created again' },
  });
  return result;
}

// The scale subresource's verbs (get, PUT, patch and apply on …/scale) over
// a parent store: the Scale view and its writes (scale.ts), the Scale's field
// manager (scalefields.ts), kube's patcher checks for the patched Scale, and
// kube's 404 for a missing parent (`deployments/scale.apps "d" not found`;
// a custom resource's scale answers as its parent).
import { isStatusError, newMethodNotSupported, newNotFound } from '../api/meta/index.js';
import { schemaFor } from '../api/schemas.js';
import type { UserInfo } from '../authn/user.js';
import type { JsonObject } from '../patch/index.js';
import type { ServedResource } from '../registry/registry.js';
import type { GenericStore } from '../registry/store.js';
import type { AsyncLens } from './versioning.js';
import type { RequestContext } from '../server/context.js';
import { addWarning, writeObject } from '../server/respond.js';
import { readBody } from './body.js';
import type { EndpointKind } from './bodykind.js';
import { decodeApply, fieldManagerOf } from './fieldmanager.js';
import { decodeTyped, fieldValidationOf } from './fieldvalidation.js';
import { applyPatch, decodePatch, patchedObject, patchInvalid, patchTypeOf, requireObject, type PatchTarget } from './patch.js';
import { checkPatchedMeta } from './patchverb.js';
import type { ResourceRequestInfo } from './requestinfo.js';
import { getScale, writeScale } from './scale.js';
import { replicasPathsOf, scaleWrites } from './scalefields.js';
import { checkPutTarget, kindedBody } from './writebody.js';

/** The kind a PATCH on /scale decodes its result as. */
const SCALE_TARGET: PatchTarget = { group: 'autoscaling', version: 'v1', kind: 'Scale', apiVersion: 'autoscaling/v1' };

export async function serveScale(
  ctx: RequestContext,
  p: { store: GenericStore; served: ServedResource; info: ResourceRequestInfo; endpoint: EndpointKind; dryRun: boolean; user: UserInfo | undefined; lens?: AsyncLens },
): Promise<void> {
  const { store, served, info, endpoint, dryRun, user, lens } = p;
  const q = ctx.url.searchParams;
  // kube's ScaleREST answers a missing parent as the subresource: `deployments/scale.apps "d" not found`.
  try {
    const scale = served.custom?.scale;
    if (info.verb === 'get') {
      const parent = await store.get(info.namespace, info.name);
      return writeObject(ctx, 200, getScale(lens ? await lens.toRequest(parent) : parent, undefined, scale?.paths));
    }
    // The Scale's field manager runs on the Scale; the parent's entries follow it (scalefields.ts).
    const paths = scale ? scale.replicasByApiVersion : replicasPathsOf(served.group, served.resource);
    const scaleCtx = { dryRun, user, ...(lens ? { lens } : {}), ...(scale ? { paths: scale.paths } : {}), ...(paths ? { ownership: { groupVersion: served.group === '' ? served.version : `${served.group}/${served.version}`, paths } } : {}) };
    if (info.verb === 'update') {
      const body = await kindedBody(ctx, endpoint);
      checkPutTarget(body, info, served);
      const writes = scaleWrites(fieldManagerOf(q, ctx.req.headers['user-agent'], 'UpdateOptions'), Boolean(scale));
      return writeObject(ctx, 200, getScale(await writeScale(store, info, writes.update(body), scaleCtx), undefined, scale?.paths));
    }
    if (info.verb === 'patch') {
      const type = patchTypeOf(ctx.req.headers['content-type'], true);
      const writes = scaleWrites(fieldManagerOf(q, ctx.req.headers['user-agent'], 'PatchOptions', type === 'apply'), Boolean(scale));
      const text = (await readBody(ctx.req)).toString('utf8');
      if (type === 'apply') {
        const req = decodeApply(text, q, fieldValidationOf(q, 'PatchOptions'));
        const r = await writeScale(store, info, writes.apply(req), scaleCtx);
        for (const w of req.warnings) addWarning(ctx, w);
        return writeObject(ctx, 200, getScale(r, undefined, scale?.paths));
      }
      const mode = fieldValidationOf(q, 'PatchOptions');
      const patch = decodePatch(type, text, mode);
      let warnings: string[] = [];
      // The patch applies to the autoscaling/v1 Scale view; a JSON or merge patch's result is decoded as a Scale.
      // Scale has no lists, so a strategic merge patch merges as a merge patch does.
      const apply = (scale: Record<string, unknown>) => {
        const patched = applyPatch(scale as JsonObject, patch, undefined);
        if (patch.type === 'strategic') return requireObject(patched.value) as Record<string, unknown>;
        const obj = patchedObject(patched, SCALE_TARGET) as Record<string, unknown>;
        const fail = (detail: string) => patchInvalid(patched, detail);
        const schema = schemaFor(SCALE_TARGET.group, SCALE_TARGET.version, SCALE_TARGET.kind);
        warnings = decodeTyped({ body: obj, duplicates: [], schema, kind: 'Scale', version: 'v1', mode, strictError: fail, typeError: fail, leading: patch.type === 'json' ? patch.strict : [] });
        return checkPatchedMeta(obj, info, store.namespaced);
      };
      const scaled = await writeScale(store, info, writes.patch(apply), scaleCtx);
      for (const w of warnings) addWarning(ctx, w);
      return writeObject(ctx, 200, getScale(scaled, undefined, scale?.paths));
    }
    throw newMethodNotSupported({ group: served.group, resource: `${served.resource}/scale` }, info.verb);
  } catch (err) {
    // A custom resource's scale answers as its parent (kube's CR scale storage).
    if (isStatusError(err) && err.status.code === 404 && err.status.details?.kind === served.resource && !served.custom) {
      throw newNotFound({ group: served.group, resource: `${served.resource}/scale` }, info.name);
    }
    throw err;
  }
}

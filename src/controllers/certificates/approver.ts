// The CSR approving controller (kube's pkg/controller/certificates/approver,
// sarapprove.go): a request for a kubelet client certificate
// (kube-apiserver-client-kubelet signer, a valid kubelet client request) is
// approved when its requester may create certificatesigningrequests/
// selfnodeclient (renewing its own node's certificate: the CSR's username is
// the request's CN) or …/nodeclient (a bootstrap token joining a node),
// asked as a SubjectAccessReview; the Approved condition carries kube's
// reason and message. Anything else is left for a person to approve.
// Acts as service account certificate-controller.
import type { ApiObject } from '../../registry/object.js';
import { isObject, nowTimestamp } from '../../registry/object.js';
import { forbiddenError } from '../../authz/forbidden.js';
import type { Attributes } from '../../authz/authorizer.js';
import type { Controller, ControllerContext } from '../context.js';
import type { ControllerClient, Target } from '../client.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { isReason } from '../informer.js';
import { decodeRequest, hasCertificate, hasCondition, kubeletClientError, signerKind, specOf } from './request.js';

export const CERTIFICATE_CONTROLLER = 'certificate-controller';
const GROUP = 'certificates.svc.io';
const APPROVAL: Target = { group: GROUP, version: 'v1', resource: 'certificatesigningrequests', subresource: 'approval' };

export class CsrApprover implements Controller {
  private readonly client: ControllerClient;
  private readonly csrs: SharedInformer;
  private readonly queue: WorkQueue<string>;

  constructor(private readonly ctx: ControllerContext) {
    this.client = ctx.client(CERTIFICATE_CONTROLLER);
    this.csrs = ctx.informers.informer(GROUP, 'certificatesigningrequests');
    this.queue = new WorkQueue((name) => this.sync(name), { retryMs: 2000, onError: (k, err) => console.error(`csr approver: ${k} failed; will retry`, err) });
  }

  async start(): Promise<void> {
    const enqueue = (c: ApiObject) => this.queue.add(c.metadata.name!, c.metadata.name!);
    this.csrs.addHandler({ onAdd: enqueue, onUpdate: (_o, c) => enqueue(c) });
    await this.csrs.start();
  }

  stop(): void {
    this.queue.stop();
  }

  private async sync(name: string): Promise<boolean> {
    const csr = this.csrs.get('', name);
    if (!csr || hasCondition(csr, 'Approved') || hasCondition(csr, 'Denied') || hasCertificate(csr)) return true;
    if (signerKind(String(specOf(csr).signerName ?? '')) !== 'kube-apiserver-client-kubelet') return true;
    let req;
    try {
      req = decodeRequest(csr);
    } catch {
      return true; // not a request the approver recognizes
    }
    if (kubeletClientError(csr, req)) return true;
    const self = specOf(csr).username === req.commonName;
    const tries: [string, string][] = [
      ...(self ? [['selfnodeclient', 'Auto approving self kubelet client certificate after SubjectAccessReview.'] as [string, string]] : []),
      ['nodeclient', 'Auto approving kubelet client certificate after SubjectAccessReview.'],
    ];
    for (const [subresource, message] of tries) {
      if (!(await this.requesterMay(csr, subresource))) continue;
      try {
        await this.client.update(APPROVAL, '', name, (cur) => {
          if (hasCondition(cur, 'Approved') || hasCondition(cur, 'Denied')) return cur;
          const status = isObject(cur.status) ? cur.status : {};
          const conditions = [...(Array.isArray(status.conditions) ? status.conditions : []), {
            type: 'Approved', status: 'True', reason: 'AutoApproved', message, lastUpdateTime: nowTimestamp(), lastTransitionTime: nowTimestamp(),
          }];
          return { ...cur, status: { ...status, conditions } };
        });
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
      }
      return true;
    }
    return true;
  }

  /** kube's SubjectAccessReview of the requester, created by this controller (which must be allowed to). */
  private async requesterMay(csr: ApiObject, subresource: string): Promise<boolean> {
    const spec = specOf(csr);
    const reviewer: Attributes = {
      user: this.client.user, verb: 'create', isResourceRequest: true, path: '', apiGroup: 'authorization.svc.io', apiVersion: 'v1',
      namespace: '', resource: 'subjectaccessreviews', subresource: '', name: '',
    };
    const own = await this.ctx.authorizer.authorize(reviewer);
    if (own.decision !== 'allow') throw forbiddenError(reviewer, own.reason);
    const d = await this.ctx.authorizer.authorize({
      user: {
        name: String(spec.username ?? ''), ...(typeof spec.uid === 'string' ? { uid: spec.uid } : {}),
        groups: Array.isArray(spec.groups) ? (spec.groups as string[]) : [],
        ...(isObject(spec.extra) ? { extra: spec.extra as Record<string, string[]> } : {}),
      },
      verb: 'create', isResourceRequest: true, path: '', apiGroup: GROUP, apiVersion: '*', namespace: '',
      resource: 'certificatesigningrequests', subresource, name: '',
    });
    return d.decision === 'allow';
  }
}


export const startCsrApprover = (ctx: ControllerContext): Controller => new CsrApprover(ctx);

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveRequestInfo } from '../endpoints/requestinfo.js';
import { dryRunLabel, isMutating, reportedVerb, requestScope } from './requestlabels.js';

describe('request labels (kube\'s CanonicalVerb, CleanVerb, CleanScope, cleanDryRun)', () => {
  it('verb and scope', () => {
    const rows: [method: string, url: string, contentType: string | undefined, verb: string, scope: string][] = [
      ['GET', '/api/v1/namespaces/ns/pods/p', undefined, 'GET', 'resource'],
      ['GET', '/api/v1/namespaces/ns/pods', undefined, 'LIST', 'namespace'],
      ['GET', '/api/v1/pods', undefined, 'LIST', 'cluster'],
      ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Dp', undefined, 'GET', 'resource'],
      ['HEAD', '/api/v1/namespaces/ns/pods', undefined, 'LIST', 'namespace'],
      ['GET', '/api/v1/namespaces/ns/pods?watch=true', undefined, 'WATCH', 'namespace'],
      ['GET', '/api/v1/namespaces/ns/pods?watch=false', undefined, 'LIST', 'namespace'],
      ['GET', '/api/v1/watch/namespaces/ns/pods', undefined, 'WATCH', 'namespace'],
      ['POST', '/api/v1/namespaces/ns/pods', 'application/json', 'POST', 'resource'],
      ['POST', '/api/v1/namespaces', 'application/json', 'POST', 'resource'],
      ['PUT', '/apis/apps/v1/namespaces/ns/deployments/d', 'application/json', 'PUT', 'resource'],
      ['PATCH', '/apis/apps/v1/namespaces/ns/deployments/d', 'application/merge-patch+json', 'PATCH', 'resource'],
      ['PATCH', '/apis/apps/v1/namespaces/ns/deployments/d', 'application/apply-patch+yaml', 'APPLY', 'resource'],
      ['DELETE', '/api/v1/namespaces/ns/pods/p', undefined, 'DELETE', 'resource'],
      ['DELETE', '/api/v1/namespaces/ns/pods', undefined, 'DELETE', 'namespace'],
      ['POST', '/api/v1/namespaces/ns/pods/p/exec', undefined, 'CONNECT', 'resource'],
      ['GET', '/api/v1/namespaces/ns/pods/p/log', undefined, 'CONNECT', 'resource'],
      ['GET', '/api/v1/namespaces/ns/pods/p/status', undefined, 'GET', 'resource'],
      ['OPTIONS', '/api/v1/namespaces/ns/pods', undefined, 'other', 'namespace'],
      ['GET', '/healthz', undefined, 'GET', ''],
      ['POST', '/healthz', undefined, 'POST', ''],
    ];
    for (const [method, url, ct, verb, scope] of rows) {
      const info = resolveRequestInfo({ method, url });
      const s = requestScope(info);
      assert.equal(s, scope, `${method} ${url} scope`);
      assert.equal(reportedVerb(method, info, s, ct), verb, `${method} ${url} verb`);
    }
  });

  it('dry_run', () => {
    const rows: [query: string, want: string][] = [['', ''], ['?limit=1', ''], ['?dryRun=All', 'All'], ['?dryRun=All&dryRun=All', 'All'], ['?dryRun=all', 'invalid'], ['?dryRun=', 'invalid'], ['?dryRun=All&dryRun=x', 'invalid']];
    for (const [q, want] of rows) {
      const u = new URL(`https://x/api/v1/pods${q}`);
      assert.equal(dryRunLabel(u.search, u.searchParams), want, q);
    }
  });

  it('mutating: every verb but get, list and watch', () => {
    const rows: [string, string, boolean][] = [['GET', '/api/v1/pods', false], ['GET', '/api/v1/pods?watch=1', false], ['GET', '/api/v1/namespaces/n/pods/p', false], ['POST', '/api/v1/namespaces/n/pods', true], ['DELETE', '/api/v1/namespaces/n/pods', true], ['GET', '/healthz', false], ['HEAD', '/healthz', true]];
    for (const [method, url, want] of rows) assert.equal(isMutating(resolveRequestInfo({ method, url })), want, `${method} ${url}`);
  });
});

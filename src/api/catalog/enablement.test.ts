// Tests of --runtime-config resolution over the catalogue: kube-apiserver's
// precedence (api/* < group/version < group/version/resource), both group
// spellings, and errors for unknown keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lookup, resolveEnablement } from './index.js';

test('runtime-config: precedence of api/*, group/version and resource keys', () => {
  const fs = (v: string) => lookup('flowcontrol.apiserver.svc.io', v, 'flowschemas');
  const off = resolveEnablement({ 'api/beta': false });
  assert.equal(off.isResourceEnabled(fs('v1beta3')!), false);
  assert.equal(off.preferredVersion('flowcontrol.apiserver.k8s.io'), undefined);
  const on = resolveEnablement(new Map([['api/alpha', true], ['resource.k8s.io/v1alpha2', false], ['api/v1', true]]));
  assert.equal(on.isVersionEnabled('networking.svc.io', 'v1alpha1'), true);
  assert.equal(on.isVersionEnabled('resource.svc.io', 'v1alpha2'), false);
  const one = resolveEnablement({ 'authentication.k8s.io/v1beta1': true, 'flowcontrol.apiserver.k8s.io/v1beta2/flowschemas': false });
  assert.equal(one.isResourceEnabled(lookup('authentication.svc.io', 'v1beta1', 'selfsubjectreviews')!), true);
  assert.equal(one.isResourceEnabled(fs('v1beta2')!), false);
  assert.equal(one.isResourceEnabled(lookup('flowcontrol.apiserver.svc.io', 'v1beta2', 'prioritylevelconfigurations')!), true);
  assert.throws(() => resolveEnablement({ 'extensions/v1beta1': true }), /unknown group-version/);
  assert.throws(() => resolveEnablement({ 'apps/v1/nothing': true }), /unknown resource/);
  assert.throws(() => resolveEnablement({ apps: true }), /invalid key/);
});

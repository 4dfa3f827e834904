// Tests of --runtime-config: the flag's values (parseRuntimeConfig) and their
// resolution over the catalogue (resolveEnablement) with kube-apiserver's
// precedence (api/* < group/version < group/version/resource), both group
// spellings, and kube-apiserver's errors.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { lookup, resolveEnablement } from './index.js';
import { parseRuntimeConfig } from './enablement.js';

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
  // A resource key wins over its version's key, whatever the order given.
  const both = resolveEnablement(new Map([['apps/v1/deployments', true], ['apps/v1', false]]));
  assert.deepEqual(both.enabledVersions('apps').map((v) => v.version), ['v1']);
  assert.deepEqual(both.enabledResources().filter((r) => r.group === 'apps').map((r) => r.resource), ['deployments']);
  // The core group.
  const noPods = resolveEnablement({ 'api/v1/pods': false });
  assert.equal(noPods.isResourceEnabled(lookup('', 'v1', 'pods')!), false);
  assert.equal(noPods.isResourceEnabled(lookup('', 'v1', 'configmaps')!), true);
});

describe('resolveEnablement rejects what kube-apiserver rejects', () => {
  const rows: [string, Record<string, boolean>, string][] = [
    ['an unknown group', { 'extensions/v1beta1': true }, 'unknown api groups extensions'],
    ['every unknown group at once', { 'a.example/v1': true, 'b.example/v1/things': false }, 'unknown api groups a.example,b.example'],
    ['a known group\'s unknown version', { 'apps/v1beta1': true }, 'group version apps/v1beta1 that has not been registered'],
    ['a k8s.io spelling keeps its spelling in the message', { 'storage.k8s.io/v2': true }, 'group version storage.k8s.io/v2 that has not been registered'],
    ['an unknown resource', { 'apps/v1/nothing': true }, 'unknown resource apps/v1/nothing'],
    ['a resource not in lower case', { 'apps/v1/Deployments': true }, 'invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not "Deployments"'],
    ['one segment', { apps: true }, 'runtime-config invalid key apps'],
    ['the bare core version', { v1: false }, 'runtime-config invalid key v1'],
    ['four segments', { 'apps/v1/deployments/status': true }, 'runtime-config invalid key apps/v1/deployments/status'],
    ['an empty segment', { 'apps//deployments': true }, 'runtime-config invalid key apps//deployments'],
    ['api/ with another version than v1', { 'api/v2': true }, 'unknown api groups api'],
  ];
  for (const [what, config, message] of rows) it(what, () => assert.throws(() => resolveEnablement(config), { message }));
});

describe('parseRuntimeConfig (the flag\'s values)', () => {
  const ok: [Record<string, string>, [string, boolean][]][] = [
    [{}, []],
    [{ 'api/all': 'true', 'apps/v1': '' }, [['api/all', true], ['apps/v1', true]]],
    [{ 'api/alpha': '' }, [['api/alpha', true]]],
    [{ 'batch/v1': 'F', 'apps/v1': '0', 'policy/v1': 'TRUE', 'api/v1/pods': 't' }, [['batch/v1', false], ['apps/v1', false], ['policy/v1', true], ['api/v1/pods', true]]],
    [{ 'api/all': 'false', 'api/v1': 'true' }, [['api/all', false], ['api/v1', true]]],
  ];
  for (const [pairs, want] of ok) it(`accepts ${JSON.stringify(pairs)}`, () => assert.deepEqual([...parseRuntimeConfig(pairs)], want));
  const bad: [Record<string, string>, string][] = [
    [{ 'apps/v1': 'yes' }, 'invalid value of apps/v1: yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
    [{ 'api/beta': 'True' }, 'invalid value api/beta=True'],
    [{ 'api/all': 'false' }, 'invalid key with only api/all=false'],
  ];
  for (const [pairs, message] of bad) it(`rejects ${JSON.stringify(pairs)}`, () => assert.throws(() => parseRuntimeConfig(pairs), { message }));
});

// Definition names, operation ids, tags and descriptions, as kube-apiserver's CRD OpenAPI builder makes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { articleFor, definitionName, OperationNames, operationDescription, validOperationId, type OperationVerb } from './names.js';

describe('definitionName', () => {
  const cases: [group: string, version: string, kind: string, want: string][] = [
    ['stable.example.com', 'v1', 'CronTab', 'com.example.stable.v1.CronTab'],
    ['crd01.example.com', 'v1beta1', 'Widget', 'com.example.crd01.v1beta1.Widget'],
    ['cert-manager.io', 'v1', 'Issuer', 'io.cert-manager.v1.Issuer'],
    ['bar.k8s.io', 'v1', 'FooList', 'io.k8s.bar.v1.FooList'],
    ['nodots', 'v1', 'Thing', 'nodots.v1.Thing'],
  ];
  for (const [group, version, kind, want] of cases) it(`${group}/${version} ${kind} → ${want}`, () => assert.equal(definitionName(group, version, kind), want));
});

describe('validOperationId (kube ToValidOperationID)', () => {
  const cases: [input: string, capitalize: boolean, want: string][] = [
    ['stable.example.com', false, 'stableExampleCom'],
    ['stable.example.com', true, 'StableExampleCom'],
    ['cert-manager.io', true, 'CertManagerIo'],
    ['v1beta1', true, 'V1beta1'],
    ['9lives.example', false, 'LivesExample'],
    ['under_score.x', false, 'under_scoreX'],
  ];
  for (const [input, cap, want] of cases) it(`${input} (${cap}) → ${want}`, () => assert.equal(validOperationId(input, cap), want));
});

describe('OperationNames', () => {
  const cases: [group: string, version: string, verb: string, rest: string, id: string, tag: string][] = [
    ['stable.example.com', 'v1', 'list', 'NamespacedCronTab', 'listStableExampleComV1NamespacedCronTab', 'stableExampleCom_v1'],
    ['stable.example.com', 'v1', 'list', 'CronTabForAllNamespaces', 'listStableExampleComV1CronTabForAllNamespaces', 'stableExampleCom_v1'],
    ['cert-manager.io', 'v1', 'read', 'NamespacedIssuerStatus', 'readCertManagerIoV1NamespacedIssuerStatus', 'certManagerIo_v1'],
    ['bar.k8s.io', 'v1alpha1', 'patch', 'FooScale', 'patchBarV1alpha1FooScale', 'bar_v1alpha1'],
    ['bar.svc.io', 'v1alpha1', 'patch', 'FooScale', 'patchBarSvcV1alpha1FooScale', 'barSvc_v1alpha1'],
  ];
  for (const [group, version, verb, rest, id, tag] of cases) {
    it(`${group}/${version}: ${id}, tag ${tag}`, () => {
      const n = new OperationNames(group, version);
      assert.equal(n.id(verb, rest), id);
      assert.equal(n.tag, tag);
    });
  }
});

describe('operationDescription (kube descriptionFor)', () => {
  const cases: [kind: string, verb: OperationVerb, sub: string, want: string][] = [
    ['Widget', 'list', '', 'list objects of kind Widget'],
    ['Widget', 'create', '', 'create a Widget'],
    ['Issuer', 'create', '', 'create an Issuer'],
    ['Widget', 'delete', '', 'delete a Widget'],
    ['Widget', 'deletecollection', '', 'delete collection of Widget'],
    ['Widget', 'read', '', 'read the specified Widget'],
    ['Widget', 'replace', 'status', 'replace status of the specified Widget'],
    ['Widget', 'patch', '', 'partially update the specified Widget'],
    ['Widget', 'patch', 'scale', 'partially update scale of the specified Widget'],
  ];
  for (const [kind, verb, sub, want] of cases) it(want, () => assert.equal(operationDescription(kind, verb, sub), want));
});

describe('articleFor (kube GetArticleForNoun)', () => {
  const cases: [noun: string, want: string][] = [['Widget', ' a '], ['Issuer', ' an '], ['Endpoints', ' '], ['Class', ' a '], ['ingress', ' an ']];
  for (const [noun, want] of cases) it(`${noun} → ${JSON.stringify(want)}`, () => assert.equal(articleFor(noun), want));
});

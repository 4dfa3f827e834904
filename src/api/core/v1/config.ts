// Configuration kinds: ConfigMap, Secret and ServiceAccount.
import { bool, bytes, list, mapOf, ref, str } from '../../../schema/dsl.js';
import { kind } from '../../../schema/common.js';
import { LocalObjectReference, ObjectReference } from './refs.js';
import { core } from './names.js';

export const ConfigMap = kind({
  immutable: bool().proto(4, { keepZero: true }).desc('When true, data and binaryData can no longer be changed.'),
  data: mapOf(str()).proto(2).desc('UTF-8 configuration values by key.'),
  binaryData: mapOf(bytes()).proto(3).desc('Binary configuration values by key, base64-encoded.'),
})
  .id(core('ConfigMap'))
  .desc('Non-confidential configuration data as key/value pairs.');

export const Secret = kind({
  immutable: bool().proto(5, { keepZero: true }).desc('When true, data can no longer be changed.'),
  data: mapOf(bytes()).proto(2).desc('Values by key, base64-encoded.'),
  stringData: mapOf(str()).proto(4).desc('Write-only plain-text values merged into data.'),
  type: str().proto(3).desc('The kind of secret, such as Opaque or kubernetes.io/tls.'),
})
  .id(core('Secret'))
  .desc('Confidential data such as passwords, tokens and keys.');

export const ServiceAccount = kind({
  secrets: list(ref(ObjectReference)).patch('merge', 'name').proto(2).desc('Secrets pods using this account may use.'),
  imagePullSecrets: list(ref(LocalObjectReference)).proto(3).desc('Secrets used to pull images for pods using this account.'),
  automountServiceAccountToken: bool().proto(4, { keepZero: true }).desc('Whether pods using this account get a token mounted; pods may override it.'),
})
  .id(core('ServiceAccount'))
  .desc('An identity for processes running in pods.');

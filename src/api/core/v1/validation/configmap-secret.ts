// ConfigMap and Secret validation: keys, sizes, types, `immutable`.
import { type FieldError, fieldPath, duplicate, forbidden, invalid, required, tooLong } from '../../../meta/field.js';
import { type Obj, configMapKeyErrors, immutable, isObj, obj, semanticEqual, str, strMap } from '../../../meta/checks.js';
import { has, sortedKeys } from './common.js';

export const MAX_SECRET_SIZE = 1024 * 1024;
const IMMUTABLE_SET = 'field is immutable when `immutable` is set';

/** Bytes of a base64 value once decoded. */
function decodedLength(v: unknown): number {
  return typeof v === 'string' ? Buffer.from(v, 'base64').length : 0;
}

export function validateConfigMap(cm: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data = obj(cm.data);
  const binary = obj(cm.binaryData);
  let size = 0;
  const dp = fieldPath('data');
  const bp = fieldPath('binaryData');
  for (const key of sortedKeys(data)) {
    for (const m of configMapKeyErrors(key)) errs.push(invalid(dp.key(key), key, m));
    if (has(binary, key)) errs.push(invalid(dp.key(key), key, 'duplicate of key present in binaryData'));
    size += Buffer.byteLength(str(data[key]));
  }
  for (const key of sortedKeys(binary)) {
    for (const m of configMapKeyErrors(key)) errs.push(invalid(bp.key(key), key, m));
    size += decodedLength(binary[key]);
  }
  if (size > MAX_SECRET_SIZE) errs.push(tooLong('', MAX_SECRET_SIZE));
  return errs;
}

function immutableData(o: Obj, old: Obj, fields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (o.immutable !== true) errs.push(forbidden('immutable', IMMUTABLE_SET));
  for (const f of fields) if (!semanticEqual(o[f], old[f])) errs.push(forbidden(f, IMMUTABLE_SET));
  return errs;
}

export function validateConfigMapUpdate(cm: Obj, old: Obj): FieldError[] {
  return [...immutableData(cm, old, ['data', 'binaryData']), ...validateConfigMap(cm)];
}

/** Secret data as the internal type sees it: data with stringData merged in (values as bytes). */
function secretData(s: Obj): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(obj(s.data))) out.set(k, Buffer.from(str(v), 'base64'));
  for (const [k, v] of Object.entries(obj(s.stringData))) out.set(k, Buffer.from(str(v), 'utf8'));
  return out;
}

/** encoding/json's error for a document that does not decode into map[string]interface{}. */
function goJsonObjectError(b: Buffer): string | undefined {
  const text = b.toString('utf8');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    const t = text.trim();
    if (t === '') return 'unexpected end of JSON input';
    return `invalid character '${t[0]}' looking for beginning of value`;
  }
  if (isObj(v) || v === null) return undefined;
  const kind = Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : 'bool';
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

export function validateSecret(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data = secretData(s);
  const dp = fieldPath('data');
  let size = 0;
  for (const key of [...data.keys()].sort()) {
    for (const m of configMapKeyErrors(key)) errs.push(invalid(dp.key(key), key, m));
    size += data.get(key)!.length;
  }
  if (size > MAX_SECRET_SIZE) errs.push(tooLong(dp, MAX_SECRET_SIZE));
  const needJson = (key: string) => {
    const b = data.get(key);
    if (b === undefined) return errs.push(required(dp.key(key)));
    const e = goJsonObjectError(b);
    if (e) errs.push(invalid(dp.key(key), '<secret contents redacted>', e));
  };
  switch (str(s.type)) {
    case 'kubernetes.io/service-account-token':
    case 'svc.io/service-account-token': {
      // the annotation in the type's own spelling (the token controller reads the same one)
      const key = `${str(s.type).split('/')[0]}/service-account.name`;
      if (!str(strMap(obj(s.metadata).annotations)[key])) errs.push(required(fieldPath('metadata').child('annotations').key(key)));
      break;
    }
    case 'kubernetes.io/dockercfg':
      needJson('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      needJson('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      if (!data.has('username') && !data.has('password')) errs.push(required(dp.key('username')), required(dp.key('password')));
      break;
    case 'kubernetes.io/ssh-auth':
      if (!data.get('ssh-privatekey')?.length) errs.push(required(dp.key('ssh-privatekey')));
      break;
    case 'kubernetes.io/tls':
      if (!data.has('tls.crt')) errs.push(required(dp.key('tls.crt')));
      if (!data.has('tls.key')) errs.push(required(dp.key('tls.key')));
      break;
  }
  return errs;
}

export function validateSecretUpdate(s: Obj, old: Obj): FieldError[] {
  const errs = immutable(str(s.type), str(old.type), fieldPath('type'));
  if (old.immutable === true) {
    if (s.immutable !== true) errs.push(forbidden('immutable', IMMUTABLE_SET));
    if (!semanticEqual(Object.fromEntries([...secretData(s)].map(([k, v]) => [k, v.toString('base64')])), obj(old.data))) errs.push(forbidden('data', IMMUTABLE_SET));
  }
  return [...errs, ...validateSecret(s)];
}

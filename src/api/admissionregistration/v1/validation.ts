// Webhook configuration validation (admissionregistration.svc.io/v1) with
// kube-apiserver v1.27's paths and messages
// (pkg/apis/admissionregistration/validation). v1 rules: sideEffects None or
// NoneOnDryRun, admissionReviewVersions must include v1 or v1beta1, webhook
// names unique. On update each rule is relaxed when the old object already
// broke it, as Kubernetes does, so old objects stay updatable.
import { type FieldError, type FieldPath, fieldPath, duplicate, invalid, notSupported, required } from '../../meta/field.js';
import { type Obj, arr, fullyQualifiedName, isObj, num, obj, portNumErrors, semanticEqual, str, validateLabelSelector } from '../../meta/checks.js';
import type { AdmissionCelEngine } from '../../../admission/matchconditions/engine.js';
import { expressionCheck, validateMatchConditions, type ExpressionCheck } from '../expressions.js';
import { dns1123SubdomainErrors as dns1123SubdomainErrorsFor } from '../../meta/validation.js';
import { goStringSlice } from '../../meta/govalue.js';
import { validateReviewVersions } from '../../meta/reviewversions.js';
import type { KindValidator } from '../../core/v1/validation.js';

export const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const SIDE_EFFECTS = ['None', 'NoneOnDryRun'];

interface Options {
  /** An update that leaves every webhook's matchConditions as they were does not check them again. */
  ignoreMatchConditions?: boolean;
  requireRecognizedReviewVersion: boolean;
  requireUniqueNames: boolean;
  requireNoSideEffects: boolean;
}

const STRICT: Options = { requireRecognizedReviewVersion: true, requireUniqueNames: true, requireNoSideEffects: true };

function validateResources(resources: string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((rs, i) => {
    if (rs === '') {
      errs.push(required(path.index(i)));
      return;
    }
    if (rs === '*/*') doubleWildcard = true;
    if (rs === '*') singleWildcard = true;
    const slash = rs.indexOf('/');
    if (slash < 0) {
      withoutSub = rs !== '*';
      return;
    }
    const res = rs.slice(0, slash);
    const sub = rs.slice(slash + 1);
    if (withWildcardSub.has(res)) errs.push(invalid(path.index(i), rs, `if '${res}/*' is present, must not specify ${rs}`));
    if (subWithWildcardRes.has(sub)) errs.push(invalid(path.index(i), rs, `if '*/${sub}' is present, must not specify ${rs}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** kube's validateRuleWithOperations (subresources allowed): also the rules of ValidatingAdmissionPolicy's match resources. */
export function validateRule(rule: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ops = arr(rule.operations).map(str);
  if (ops.length === 0) errs.push(required(path.child('operations')));
  if (ops.length > 1 && ops.includes('*')) errs.push(invalid(path.child('operations'), goStringSlice('admissionregistration.OperationType', ops), "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(notSupported(path.child('operations').index(i), op, OPERATIONS));
  });
  const groups = arr(rule.apiGroups).map(str);
  if (groups.length === 0) errs.push(required(path.child('apiGroups')));
  if (groups.length > 1 && groups.includes('*')) errs.push(invalid(path.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  const versions = arr(rule.apiVersions).map(str);
  if (versions.length === 0) errs.push(required(path.child('apiVersions')));
  if (versions.length > 1 && versions.includes('*')) errs.push(invalid(path.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(path.child('apiVersions').index(i)));
  });
  errs.push(...validateResources(arr(rule.resources).map(str), path.child('resources')));
  if (typeof rule.scope === 'string' && !SCOPES.includes(rule.scope)) errs.push(notSupported(path.child('scope'), rule.scope, SCOPES));
  return errs;
}

const URL_FORM = '; desired format: https://host[/path]';

function validateURL(text: string, path: FieldPath): FieldError[] {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return [invalid(path, text, `host must be specified${URL_FORM}`)];
  }
  const errs: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push(invalid(path, scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (!u.host) errs.push(invalid(path, u.host, `host must be specified${URL_FORM}`));
  if (u.username || u.password) errs.push(invalid(path, u.password ? `${u.username}:${u.password}` : u.username, 'user information is not permitted in the URL'));
  if (u.hash) errs.push(invalid(path, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search) errs.push(invalid(path, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

function validateService(svc: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(svc.name)) errs.push(required(path.child('name'), 'service name is required'));
  if (!str(svc.namespace)) errs.push(required(path.child('namespace'), 'service namespace is required'));
  const port = num(svc.port) ?? 443;
  const pm = portNumErrors(port);
  if (pm.length) errs.push(invalid(path.child('port'), port, `port is not valid: ${pm.join(', ')}`));
  if (typeof svc.path !== 'string') return errs;
  const p = svc.path;
  if (p === '/' || p === '') return errs;
  if (p === '//') return [...errs, invalid(path.child('path'), p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) errs.push(invalid(path.child('path'), p, "must start with a '/'"));
  let check = p.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(invalid(path.child('path'), p, `segment[${i}] may not be empty`));
      return;
    }
    for (const m of dns1123SubdomainErrorsFor(step)) errs.push(invalid(path.child('path'), p, `segment[${i}]: ${m}`));
  });
  return errs;
}

function validateWebhook(hook: Obj, mutating: boolean, opts: Options, check: ExpressionCheck, path: FieldPath): FieldError[] {
  const errs = fullyQualifiedName(path.child('name'), str(hook.name));
  arr(hook.rules).forEach((r, i) => errs.push(...validateRule(obj(r), path.child('rules').index(i))));
  if (typeof hook.failurePolicy === 'string' && !['Fail', 'Ignore'].includes(hook.failurePolicy)) errs.push(notSupported(path.child('failurePolicy'), hook.failurePolicy, ['Fail', 'Ignore']));
  if (typeof hook.matchPolicy === 'string' && !['Equivalent', 'Exact'].includes(hook.matchPolicy)) errs.push(notSupported(path.child('matchPolicy'), hook.matchPolicy, ['Equivalent', 'Exact']));
  if (isObj(hook.namespaceSelector)) errs.push(...validateLabelSelector(hook.namespaceSelector, path.child('namespaceSelector')));
  if (isObj(hook.objectSelector)) errs.push(...validateLabelSelector(hook.objectSelector, path.child('objectSelector')));
  const se = hook.sideEffects;
  const supported = opts.requireNoSideEffects ? SIDE_EFFECTS : ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
  if (typeof se !== 'string') errs.push(required(path.child('sideEffects'), `must specify one of ${supported.join(', ')}`));
  else if (!supported.includes(se)) errs.push(notSupported(path.child('sideEffects'), se, supported));
  const timeout = num(hook.timeoutSeconds);
  if (timeout !== undefined && (timeout > 30 || timeout < 1)) errs.push(invalid(path.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  if (mutating && typeof hook.reinvocationPolicy === 'string' && !['IfNeeded', 'Never'].includes(hook.reinvocationPolicy)) {
    errs.push(notSupported(path.child('reinvocationPolicy'), hook.reinvocationPolicy, ['IfNeeded', 'Never']));
  }
  const cc = obj(hook.clientConfig);
  const cp = path.child('clientConfig');
  const hasURL = typeof cc.url === 'string';
  const hasSvc = isObj(cc.service);
  if (hasURL === hasSvc) errs.push(required(cp, 'exactly one of url or service is required'));
  else if (hasURL) errs.push(...validateURL(cc.url as string, cp.child('url')));
  else errs.push(...validateService(obj(cc.service), cp.child('service')));
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(arr(hook.matchConditions), false, check, path.child('matchConditions')));
  return errs;
}

function validateConfiguration(cfg: Obj, mutating: boolean, opts: Options, check: ExpressionCheck): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arr(cfg.webhooks).forEach((raw, i) => {
    const hook = obj(raw);
    const p = fieldPath('webhooks').index(i);
    errs.push(...validateWebhook(hook, mutating, opts, check, p));
    errs.push(...validateReviewVersions(arr(hook.admissionReviewVersions).map(str), ACCEPTED_REVIEW_VERSIONS, opts.requireRecognizedReviewVersion, p.child('admissionReviewVersions'), `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
    const name = str(hook.name);
    if (opts.requireUniqueNames && name) {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/** The options an update is held to: each v1 rule only when the old object already kept it. */
function updateOptions(cfg: Obj, old: Obj): Options {
  const hooks = arr(old.webhooks).map(obj);
  const now = arr(cfg.webhooks).map(obj);
  const names = hooks.map((h) => str(h.name));
  return {
    ignoreMatchConditions: now.length === hooks.length && now.every((h, i) => semanticEqual(h.matchConditions, hooks[i]!.matchConditions)),
    requireRecognizedReviewVersion: hooks.every((h) => arr(h.admissionReviewVersions).some((v) => ACCEPTED_REVIEW_VERSIONS.includes(str(v)))),
    requireUniqueNames: new Set(names).size === names.length,
    requireNoSideEffects: hooks.every((h) => SIDE_EFFECTS.includes(str(h.sideEffects))),
  };
}

export const validateValidatingWebhookConfiguration = (cfg: Obj, engine?: AdmissionCelEngine) => validateConfiguration(cfg, false, STRICT, expressionCheck(engine));
export const validateMutatingWebhookConfiguration = (cfg: Obj, engine?: AdmissionCelEngine) => validateConfiguration(cfg, true, STRICT, expressionCheck(engine));

/** The validators; matchConditions' expressions are compiled with `engine` (none: not compiled). */
export function admissionregistrationValidators(engine?: AdmissionCelEngine): Record<string, KindValidator> {
  const check = expressionCheck(engine);
  return {
    ValidatingWebhookConfiguration: { validate: (o) => validateConfiguration(o, false, STRICT, check), validateUpdate: (o, old) => validateConfiguration(o, false, updateOptions(o, old), check) },
    MutatingWebhookConfiguration: { validate: (o) => validateConfiguration(o, true, STRICT, check), validateUpdate: (o, old) => validateConfiguration(o, true, updateOptions(o, old), check) },
  };
}

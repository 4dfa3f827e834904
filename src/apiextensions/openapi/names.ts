// The names kube-apiserver's CRD OpenAPI builder gives a custom resource
// (apiextensions-apiserver pkg/controller/openapi/builder, v1.27):
//
//   definition     <group with its DNS labels reversed>.<version>.<Kind>   com.example.stable.v1.CronTab
//   operation id   <verb><Group><Version>[Namespaced]<Kind>[<Sub>]           listStableExampleComV1NamespacedCronTab
//   tag            <group>_<version>                                      stableExampleCom_v1
//   description    "list objects of kind CronTab", "create a CronTab", "read status of the specified CronTab"…
//
// Operation ids and tags are kube's GetOperationIDAndTags over the route's path:
// the group loses a trailing ".k8s.io" and is camel-cased at every character
// that is not a letter, digit or underscore. A group spelled in the svc.io
// domain loses ".svc.io" and gains "Svc", as the built-in groups do here
// (src/openapi/routes.ts), so both spellings of a group get distinct ids.

/** The OpenAPI definition name of a custom resource kind (kube-openapi's ToRESTFriendlyName of `group/version.Kind`). */
export function definitionName(group: string, version: string, kind: string): string {
  const reversed = group.includes('.') ? group.split('.').reverse().join('.') : group;
  return `${reversed}.${version}.${kind}`;
}

/** kube's ToValidOperationID: letters, digits (not first) and underscores kept; anything else starts a capitalized word. */
export function validOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const ch of s) {
    const keep = /\p{L}/u.test(ch) || ch === '_' || (i !== 0 && /\p{Nd}/u.test(ch));
    i += ch.length;
    if (!keep) {
      capitalize = true;
      continue;
    }
    out += capitalize ? ch.toUpperCase() : ch;
    capitalize = false;
  }
  return out;
}

/** The operation ids and tag of one group-version (in one spelling of its group). */
export class OperationNames {
  readonly tag: string;
  private readonly middle: string;

  constructor(group: string, version: string) {
    const svc = /(^|\.)svc\.io$/.test(group);
    const trimmed = group.replace(svc ? /\.?svc\.io$/ : /\.k8s\.io$/, '');
    const suffix = svc ? 'Svc' : '';
    this.tag = `${validOperationId(trimmed, false)}${suffix}_${validOperationId(version, false)}`;
    this.middle = `${validOperationId(trimmed, true)}${suffix}${validOperationId(version, true)}`;
  }

  /** `verb` + group-version + `rest`, e.g. id('list', 'NamespacedCronTab') → listStableExampleComV1NamespacedCronTab. */
  id(verb: string, rest: string): string {
    return `${verb}${this.middle}${validOperationId(rest, true)}`;
  }
}

export type OperationVerb = 'list' | 'create' | 'deletecollection' | 'read' | 'replace' | 'delete' | 'patch';

/** kube's descriptionFor: the operation's description for a kind, on the resource or one of its subresources. */
export function operationDescription(kind: string, verb: OperationVerb, subresource = ''): string {
  const sub = subresource === '' ? '' : ` ${subresource} of`;
  switch (verb) {
    case 'list':
      return `list${sub} objects of kind ${kind}`;
    case 'read':
    case 'replace':
      return `${verb}${sub} the specified ${kind}`;
    case 'patch':
      return `partially update${sub} the specified ${kind}`;
    case 'create':
    case 'delete':
      return `${verb}${sub}${articleFor(kind)}${kind}`;
    case 'deletecollection':
      return `delete collection of${sub === '' ? '' : `${sub} a`} ${kind}`;
  }
}

/** kube's GetArticleForNoun with a space on each side: none for plurals (but "…ss"), "an" before a vowel. */
export function articleFor(noun: string): string {
  if (noun.endsWith('s') && !noun.endsWith('ss')) return ' ';
  return /^[aeiou]/i.test(noun) ? ' an ' : ' a ';
}

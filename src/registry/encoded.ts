// Text made once per immutable value and variant (an API version spelling,
// a watch event's new or old object) and shared by every reader — gets from
// the watch cache and events fanned out to many watchers. Entries live as
// long as the value they belong to.
const texts = new WeakMap<object, Map<string, string>>();

/** The text for (`owner`, `variant`), made by `make` the first time it is asked for. */
export function textOnce(owner: object, variant: string, make: () => string): string {
  let byVariant = texts.get(owner);
  if (!byVariant) texts.set(owner, (byVariant = new Map()));
  let text = byVariant.get(variant);
  if (text === undefined) byVariant.set(variant, (text = make()));
  return text;
}

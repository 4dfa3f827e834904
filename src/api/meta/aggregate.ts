// Several error messages as Go's utilerrors.NewAggregate(...).Error() prints
// them: one message alone, several (each once, in order) as `[a, b]`.
export function aggregateErrors(messages: readonly string[]): string {
  const seen = [...new Set(messages)];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

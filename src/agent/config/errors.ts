// The one error type of agent configuration: a bad flag, a bad --config file
// or a value that fails validation. The message is kube's text; the CLI prints
// it and exits 1.

export type AgentConfigErrorKind = 'flag' | 'file' | 'validation';

export class AgentConfigError extends Error {
  override readonly name = 'AgentConfigError';
  constructor(
    readonly kind: AgentConfigErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** utilerrors.NewAggregate's text: one error as is, several as `[a, b]`. */
export function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

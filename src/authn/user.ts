// The authenticated user carried through a request (Kubernetes' user.Info).
export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export const ANONYMOUS = 'system:anonymous';
export const UNAUTHENTICATED = 'system:unauthenticated';
export const AUTHENTICATED = 'system:authenticated';
export const MASTERS = 'system:masters';

// authentication/v1: TokenReview, which asks the server to authenticate a
// bearer token; UserInfo, the identity reviews answer with; and TokenRequest,
// the body of serviceaccounts/<name>/token.
import { bool, int64, kind, list, mapOf, obj, ref, str, Time, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.authentication.v1';

export const UserInfo = obj({
  username: str().proto(1).desc('The name of the user.'),
  uid: str().proto(2).desc('A unique, stable identifier of the user.'),
  groups: list(str()).proto(3).desc('The groups the user belongs to.'),
  extra: mapOf(list(str())).proto(4).desc('Further attributes the authenticator provides.'),
})
  .id(`${PKG}.UserInfo`)
  .desc('An authenticated identity.');

export const TokenReviewSpec = obj({
  token: str().proto(1).desc('The bearer token to check.'),
  audiences: list(str()).proto(2).desc('Audiences the token must be valid for, any one of them; the server\'s own when empty.'),
})
  .id(`${PKG}.TokenReviewSpec`)
  .desc('The token to authenticate.');

export const TokenReviewStatus = obj({
  authenticated: bool().proto(1).desc('Whether the token identifies a user.'),
  user: ref(UserInfo).proto(2, { always: true }).desc('Who the token identifies.'),
  audiences: list(str()).proto(4).desc('The audiences, among those asked for, the token is valid for.'),
  error: str().proto(3).desc('Why the token could not be checked, if it could not.'),
})
  .id(`${PKG}.TokenReviewStatus`)
  .desc('The result of a token review.');

export const TokenReview = kind(
  {
    spec: ref(TokenReviewSpec).proto(2).desc('The token to check.'),
    status: ref(TokenReviewStatus).proto(3).desc('The answer, filled in by the server.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.TokenReview`)
  .desc('A request to authenticate a token; answered, never stored.');

export const BoundObjectReference = obj({
  kind: str().proto(1).desc("Kind of the referent: 'Pod' or 'Secret'."),
  apiVersion: str().proto(2).desc('API version of the referent.'),
  name: str().proto(3).desc('Name of the referent.'),
  uid: str().proto(4).desc('UID of the referent.'),
})
  .id(`${PKG}.BoundObjectReference`)
  .desc('The object a token is bound to.');

export const TokenRequestSpec = obj(
  {
    audiences: list(str()).proto(1).desc('The audiences the token is for; the API server\'s own when empty.'),
    expirationSeconds: int64().proto(4).desc('The requested validity of the token, in seconds (at least 600; default 3600).'),
    boundObjectRef: ref(BoundObjectReference).proto(3).desc('A Pod or Secret the token is valid only as long as it exists.'),
  },
  { required: ['audiences'] },
)
  .id(`${PKG}.TokenRequestSpec`)
  .desc('What a token is requested for.');

export const TokenRequestStatus = obj(
  {
    token: str().proto(1, { keepZero: true }).desc('The bearer token.'),
    expirationTimestamp: ref(Time).proto(2).desc('When the token expires.'),
  },
  { required: ['token', 'expirationTimestamp'] },
)
  .id(`${PKG}.TokenRequestStatus`)
  .desc('The issued token.');

export const TokenRequest = kind(
  {
    spec: ref(TokenRequestSpec).proto(2).desc('The requested token.'),
    status: ref(TokenRequestStatus).proto(3).desc('The token, filled in by the server.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.TokenRequest`)
  .desc('A request for a token of a service account; answered, never stored.');

export const kinds: Readonly<Record<string, S>> = { TokenReview, TokenRequest };

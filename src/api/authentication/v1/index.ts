// authentication/v1: TokenReview, which asks the server to authenticate a
// bearer token; and UserInfo, the identity reviews answer with.
import { bool, kind, list, mapOf, obj, ref, str, type S } from '../../../schema/index.js';

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

export const kinds: Readonly<Record<string, S>> = { TokenReview };

// authentication/v1: TokenReview, which asks the server to authenticate a
// bearer token; and UserInfo, the identity reviews answer with.
import { bool, kind, list, mapOf, obj, ref, str, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.authentication.v1';

export const UserInfo = obj({
  username: str().desc('The name of the user.'),
  uid: str().desc('A unique, stable identifier of the user.'),
  groups: list(str()).desc('The groups the user belongs to.'),
  extra: mapOf(list(str())).desc('Further attributes the authenticator provides.'),
})
  .id(`${PKG}.UserInfo`)
  .desc('An authenticated identity.');

export const TokenReviewSpec = obj({
  token: str().desc('The bearer token to check.'),
  audiences: list(str()).desc('Audiences the token must be valid for, any one of them; the server\'s own when empty.'),
})
  .id(`${PKG}.TokenReviewSpec`)
  .desc('The token to authenticate.');

export const TokenReviewStatus = obj({
  authenticated: bool().desc('Whether the token identifies a user.'),
  user: ref(UserInfo).desc('Who the token identifies.'),
  audiences: list(str()).desc('The audiences, among those asked for, the token is valid for.'),
  error: str().desc('Why the token could not be checked, if it could not.'),
})
  .id(`${PKG}.TokenReviewStatus`)
  .desc('The result of a token review.');

export const TokenReview = kind(
  {
    spec: ref(TokenReviewSpec).desc('The token to check.'),
    status: ref(TokenReviewStatus).desc('The answer, filled in by the server.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.TokenReview`)
  .desc('A request to authenticate a token; answered, never stored.');

export const kinds: Readonly<Record<string, S>> = { TokenReview };

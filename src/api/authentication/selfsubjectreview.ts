// SelfSubjectReview, which asks the server who the caller is; the same in
// authentication v1alpha1 and v1beta1 apart from the package.
import { kind, obj, ref, type S } from '../../schema/index.js';
import { UserInfo } from './v1/index.js';

export function selfSubjectReview(pkg: string): S {
  const status = obj({ userInfo: ref(UserInfo).proto(1, { always: true }).desc('The caller\'s identity as the server authenticated it.') })
    .id(`${pkg}.SelfSubjectReviewStatus`)
    .desc('Who the caller is.');
  return kind({ status: ref(status).proto(2).desc('The answer, filled in by the server.') })
    .id(`${pkg}.SelfSubjectReview`)
    .desc('A request for the caller\'s own identity; answered, never stored.');
}

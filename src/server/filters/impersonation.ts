// Impersonation (Impersonate-User, -Group, -Uid, -Extra-*) is honoured by the
// authentication issue; until then requests carrying it are refused with 403
// rather than silently served as the caller.
import { newForbidden } from '../../api/meta/index.js';
import { userOf, type Handler } from '../context.js';

export function withImpersonation(next: Handler): Handler {
  return async (ctx) => {
    const headers = Object.keys(ctx.req.headers).filter((h) => h.startsWith('impersonate-'));
    if (headers.length > 0) {
      const user = userOf(ctx);
      throw newForbidden({ group: '', resource: 'users' }, String(ctx.req.headers['impersonate-user'] ?? ''), `User "${user.name}" cannot impersonate: impersonation is not supported by this server yet`);
    }
    await next(ctx);
  };
}

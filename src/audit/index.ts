// Audit logging (kube-apiserver v1.27's audit: staging/src/k8s.io/apiserver/pkg/audit,
// pkg/audit/policy, plugin/pkg/audit/{log,webhook,buffered,truncate}), one concept per file:
//
//   types.ts       levels, stages, Policy, the Event as written
//   policy.ts      --audit-policy-file: decoding (both spellings) and kube's validation texts
//   checker.ts     the policy's level for a request (first matching rule)
//   record.ts      a request's record and the hooks later stages call (objects, Status, impersonation)
//   sourceips.ts   X-Forwarded-For / X-Real-Ip / peer, as kube's SourceIPs
//   encode.ts      kube's JSON Event and EventList, the legacy line
//   backend.ts     the backend seam, blocking (errors ignored), union
//   logbackend.ts  + bytebatch.ts + logfile.ts: the log file (lumberjack rotation), one write per loop turn
//   buffered.ts    the batch mode;  truncate.ts  --audit-*-truncate-*;  webhook.ts  EventList POSTs
//   metrics.ts     apiserver_audit_* and kube's HandlePluginError
//   options.ts     the flags' options, defaults, validation, and the backends they build
//
// The filter is src/server/filters/audit.ts; the flags src/cli/auditflags.ts.
export { buildAudit, defaultAuditOptions, type AuditOptions, type AuditSetup } from './options.js';
export { auditImpersonatedUser, auditRequestObject, auditRequestPatch, auditResponseObject, auditResponseStatus, auditResponseText, auditWantsResponse, isAudited } from './record.js';

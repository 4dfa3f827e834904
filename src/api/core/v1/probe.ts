// Health checks and lifecycle hooks: Probe with its handlers (exec, HTTP GET,
// TCP socket, gRPC) and Lifecycle with its handlers. In Go a Probe embeds its
// handler (ProbeHandler), so exec/httpGet/tcpSocket/grpc are numbered inside
// that message (`in: 1`).
import { int32, int64, list, obj, ref, str } from '../../../schema/dsl.js';
import { IntOrString } from '../../../schema/common.js';
import { core } from './names.js';

export const ExecAction = obj({
  command: list(str()).proto(1).desc('The command and its arguments, run without a shell; exit status 0 means success.'),
})
  .id(core('ExecAction'))
  .desc('A command run inside a container.');

export const HTTPHeader = obj({
  name: str().required().proto(1, { keepZero: true }).desc('The header name.'),
  value: str().required().proto(2, { keepZero: true }).desc('The header value.'),
})
  .id(core('HTTPHeader'))
  .desc('One HTTP header.');

export const HTTPGetAction = obj({
  path: str().proto(1).desc('The path to request.'),
  port: ref(IntOrString).required().proto(2).desc('The port, by number or by container port name.'),
  host: str().proto(3).desc('The host to connect to; the pod IP when empty.'),
  scheme: str().proto(4).desc('HTTP or HTTPS; HTTP by default.'),
  httpHeaders: list(ref(HTTPHeader)).proto(5).desc('Extra request headers.'),
})
  .id(core('HTTPGetAction'))
  .desc('An HTTP GET request.');

export const TCPSocketAction = obj({
  port: ref(IntOrString).required().proto(1).desc('The port, by number or by container port name.'),
  host: str().proto(2).desc('The host to connect to; the pod IP when empty.'),
})
  .id(core('TCPSocketAction'))
  .desc('A TCP connection attempt.');

export const GRPCAction = obj({
  port: int32().required().proto(1, { keepZero: true }).desc('The port of the gRPC service.'),
  service: str().proto(2, { keepZero: true }).desc("The service name sent in the health check request; the server's default when empty."),
})
  .id(core('GRPCAction'))
  .desc('A gRPC health check.');

export const Probe = obj({
  exec: ref(ExecAction).proto(1, { in: 1 }).desc('A command to run in the container.'),
  httpGet: ref(HTTPGetAction).proto(2, { in: 1 }).desc('An HTTP GET request to perform.'),
  tcpSocket: ref(TCPSocketAction).proto(3, { in: 1 }).desc('A TCP connection to open.'),
  grpc: ref(GRPCAction).proto(4, { in: 1 }).desc('A gRPC health check to perform.'),
  initialDelaySeconds: int32().proto(2).desc('Seconds to wait after the container starts before the first check.'),
  timeoutSeconds: int32().proto(3).desc('Seconds after which a check times out; 1 by default.'),
  periodSeconds: int32().proto(4).desc('Seconds between checks; 10 by default.'),
  successThreshold: int32().proto(5).desc('Successes in a row needed after a failure; 1 by default.'),
  failureThreshold: int32().proto(6).desc('Failures in a row needed after a success; 3 by default.'),
  terminationGracePeriodSeconds: int64().proto(7, { keepZero: true }).desc("A grace period for stopping the container after a failed check; the pod's when unset."),
})
  .id(core('Probe'))
  .desc('A periodic check of a container.');

export const LifecycleHandler = obj({
  exec: ref(ExecAction).proto(1).desc('A command to run in the container.'),
  httpGet: ref(HTTPGetAction).proto(2).desc('An HTTP GET request to perform.'),
  tcpSocket: ref(TCPSocketAction).proto(3).desc('Kept for compatibility; not supported as a hook.'),
})
  .id(core('LifecycleHandler'))
  .desc('One lifecycle hook action; exactly one field is set.');

export const Lifecycle = obj({
  postStart: ref(LifecycleHandler).proto(1).desc('Run right after the container is created; failure restarts it.'),
  preStop: ref(LifecycleHandler).proto(2).desc('Run before the container is terminated by an API request or a management event.'),
})
  .id(core('Lifecycle'))
  .desc("Actions run at points of a container's life.");

// The grpc probe: grpc.health.v1.Health/Check over plaintext to the pod IP
// and the probe's port, with the probe's `service`; SERVING is success. The
// connection and the call share the timeout (kube dials with WithBlock), and
// the outputs read as kube's:
//   timeout: failed to connect service "10.0.0.1:9000" within 1s: context deadline exceeded
//   timeout: health rpc did not complete within 1s
//   error: this server does not implement the grpc health protocol (grpc.health.v1.Health): <message>
//   error: health rpc probe failed: rpc error: code = NotFound desc = unknown service
//   service unhealthy (responded with "NOT_SERVING")
import { Client, Metadata, credentials, type ServiceError } from '@grpc/grpc-js';
import { goDuration, goQuote, grpcErrorText, joinHostPort } from './goformat.js';
import { HEALTH_CHECK_METHOD, decodeResponse, encodeRequest, servingStatusName, type HealthCheckResponse } from './health.js';
import { PROBE_USER_AGENT } from './httprequest.js';
import type { ProbeOutcome } from './types.js';

const UNIMPLEMENTED = 12;
const DEADLINE_EXCEEDED = 4;
const SERVING = 1;

export async function grpcProbe(host: string, port: number, service: string, timeoutSeconds: number): Promise<ProbeOutcome> {
  const addr = joinHostPort(host, port);
  const timeout = goDuration(timeoutSeconds);
  const deadline = Date.now() + timeoutSeconds * 1000;
  let client: Client;
  try {
    client = new Client(addr, credentials.createInsecure(), {
      'grpc.primary_user_agent': PROBE_USER_AGENT,
      'grpc.enable_retries': 0,
    });
  } catch (err) {
    return { result: 'Failure', output: `error: failed to connect service at ${goQuote(addr)}: ${(err as Error).message}` };
  }
  try {
    const connectError = await new Promise<Error | undefined>((resolve) => client.waitForReady(deadline, resolve));
    if (connectError) {
      return { result: 'Failure', output: `timeout: failed to connect service ${goQuote(addr)} within ${timeout}: context deadline exceeded` };
    }
    const res = await new Promise<HealthCheckResponse | ServiceError>((resolve) => {
      client.makeUnaryRequest(HEALTH_CHECK_METHOD, encodeRequest, decodeResponse, { service }, new Metadata(), { deadline },
        (err, value) => resolve(err ?? value ?? { status: 0 }));
    });
    if ('code' in res) {
      if (res.code === UNIMPLEMENTED) {
        return { result: 'Failure', output: `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${res.details}` };
      }
      if (res.code === DEADLINE_EXCEEDED) return { result: 'Failure', output: `timeout: health rpc did not complete within ${timeout}` };
      return { result: 'Failure', output: `error: health rpc probe failed: ${grpcErrorText(res.code, res.details)}` };
    }
    if (res.status !== SERVING) return { result: 'Failure', output: `service unhealthy (responded with ${goQuote(servingStatusName(res.status))})` };
    return { result: 'Success', output: 'service is healthy' };
  } finally {
    client.close();
  }
}

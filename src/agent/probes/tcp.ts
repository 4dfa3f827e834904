// The tcpSocket probe: success when a TCP connection to host:port opens
// within the timeout; the connection is closed at once. A failure's output
// is Go's dial error text (`dial tcp 10.0.0.1:80: connect: connection refused`).
import { connect } from 'node:net';
import { dialErrorText, joinHostPort } from './goformat.js';
import type { ProbeOutcome } from './types.js';

export function tcpProbe(host: string, port: number, timeoutSeconds: number): Promise<ProbeOutcome> {
  const addr = joinHostPort(host, port);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let done = false;
    const finish = (outcome: ProbeOutcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ result: 'Failure', output: dialErrorText(addr, host, 'timeout') }), timeoutSeconds * 1000);
    socket.once('connect', () => finish({ result: 'Success', output: '' }));
    socket.once('error', (err) => finish({ result: 'Failure', output: dialErrorText(addr, host, err) }));
  });
}

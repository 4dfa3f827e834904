import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CriError } from '../cri/types.js';
import { EXEC_MAX_OUTPUT, execProbe } from './exec.js';
import { FakeExecRuntime, execResult, type ExecAnswer } from './testing.js';
import { ProbeError, type ProbeOutcome } from './types.js';

describe('exec probe', () => {
  const rows: { name: string; answer: ExecAnswer; want: ProbeOutcome }[] = [
    { name: 'exit 0 is success; output is stdout then stderr', answer: execResult(0, 'out ', 'err'), want: { result: 'Success', output: 'out err' } },
    { name: 'a non-zero exit fails with the output', answer: execResult(1, '', 'cat: /tmp/healthy: No such file or directory\n'),
      want: { result: 'Failure', output: 'cat: /tmp/healthy: No such file or directory\n' } },
    { name: 'a non-zero exit without output', answer: execResult(137), want: { result: 'Failure', output: '' } },
    { name: 'a runtime deadline is a failure (ExecProbeTimeout)', answer: new CriError(4, 'timeout 1s exceeded: context deadline exceeded', 'ExecSync'),
      want: { result: 'Failure', output: 'command "sh -c sleep 10" timed out' } },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const rt = new FakeExecRuntime(new Map([['abc', row.answer]]));
      assert.deepEqual(await execProbe(rt, 'containerd://abc', ['sh', '-c', 'sleep 10'], 3), row.want);
      assert.deepEqual(rt.calls, [{ id: 'abc', cmd: ['sh', '-c', 'sleep 10'], timeoutSeconds: 3 }]);
    });
  }
  it('with ExecProbeTimeout off a timeout is an error (the result is thrown away)', async () => {
    const rt = new FakeExecRuntime(new Map([['abc', new CriError(4, 'deadline', 'ExecSync')]]));
    await assert.rejects(execProbe(rt, 'containerd://abc', ['sleep', '5'], 1, false),
      (e: unknown) => e instanceof ProbeError && e.message === 'command "sleep 5" timed out');
  });
  it('keeps at most 10 KiB of output', async () => {
    const rt = new FakeExecRuntime(new Map([['abc', execResult(1, 'x'.repeat(EXEC_MAX_OUTPUT), 'y'.repeat(100))]]));
    const out = await execProbe(rt, 'containerd://abc', ['true'], 1);
    assert.equal(out.output, 'x'.repeat(EXEC_MAX_OUTPUT));
  });
  it('another runtime error is an error, with grpc-go\'s text', async () => {
    const rt = new FakeExecRuntime(new Map([['abc', new CriError(2, 'cannot exec in a stopped state', 'ExecSync')]]));
    await assert.rejects(execProbe(rt, 'containerd://abc', ['true'], 1),
      (e: unknown) => e instanceof ProbeError && e.message === 'rpc error: code = Unknown desc = cannot exec in a stopped state');
  });
});

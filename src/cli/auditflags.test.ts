import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FlagError, parseFlags } from './flags.js';
import { AUDIT_FLAGS, auditOptions } from './auditflags.js';
import { tempDir } from '../testing/tempdir.js';

const parse = (...argv: string[]) => auditOptions(parseFlags(AUDIT_FLAGS, argv).values).audit;

describe('audit flags', () => {
  it("kube's defaults: the log blocks in batches of one, the webhook batches 400 every 30 s at 10 QPS", () => {
    const a = parse();
    assert.equal(a.policyFile, '');
    assert.deepEqual({ ...a.log, batch: undefined, truncate: undefined }, { path: '', maxAge: 0, maxBackups: 0, maxSize: 0, format: 'json', compress: false, version: 'audit.k8s.io/v1', batch: undefined, truncate: undefined });
    assert.deepEqual(a.log.batch, { mode: 'blocking', bufferSize: 10000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0, asyncDelegate: false });
    assert.deepEqual(a.webhook.batch, { mode: 'batch', bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15, asyncDelegate: true });
    assert.equal(a.webhook.initialBackoffMs, 10000);
    assert.deepEqual(a.log.truncate, { enabled: false, maxBatchSize: 10485760, maxEventSize: 102400 });
  });

  it('reads the values', () => {
    const a = parse('--audit-log-path=/tmp/a.log', '--audit-log-maxsize=5', '--audit-log-maxbackup=2', '--audit-log-maxage=7', '--audit-log-compress', '--audit-log-format=legacy',
      '--audit-log-mode=batch', '--audit-log-batch-max-wait=2s', '--audit-log-batch-throttle-qps=2.5', '--audit-webhook-initial-backoff=1s', '--audit-log-truncate-enabled');
    assert.equal(a.log.path, '/tmp/a.log');
    assert.deepEqual([a.log.maxSize, a.log.maxBackups, a.log.maxAge, a.log.compress, a.log.format], [5, 2, 7, true, 'legacy']);
    assert.deepEqual([a.log.batch.mode, a.log.batch.maxBatchWaitMs, a.log.batch.throttleQPS], ['batch', 2000, 2.5]);
    assert.equal(a.webhook.initialBackoffMs, 1000);
    assert.equal(a.log.truncate.enabled, true);
  });

  const bad: [string[], string][] = [
    [['--audit-log-path=x', '--audit-log-format=xml'], 'invalid audit log format xml, allowed formats are "legacy,json"'],
    [['--audit-log-path=x', '--audit-log-mode=async'], 'invalid audit log mode async, allowed modes are "batch,blocking,blocking-strict"'],
    [['--audit-log-path=x', '--audit-log-maxage=-1'], "--audit-log-maxage -1 can't be a negative number"],
    [['--audit-log-path=x', '--audit-log-maxbackup=-1'], "--audit-log-maxbackup -1 can't be a negative number"],
    [['--audit-log-path=x', '--audit-log-maxsize=-1'], "--audit-log-maxsize -1 can't be a negative number"],
    [['--audit-log-path=x', '--audit-log-mode=batch', '--audit-log-batch-buffer-size=0'], 'invalid audit batch log buffer size 0, must be a positive number'],
    [['--audit-webhook-config-file=x', '--audit-webhook-batch-throttle-qps=0'], 'invalid audit batch webhook throttle QPS 0, must be a positive number'],
    [['--audit-webhook-config-file=x', '--audit-webhook-truncate-max-event-size=0'], 'invalid audit truncate webhook max event size 0, must be a positive number'],
    [['--audit-log-path=x', '--audit-log-truncate-max-batch-size=10', '--audit-log-truncate-max-event-size=20'], 'invalid audit truncate log max batch size 10, must be greater than max event size (20)'],
    [['--audit-log-path=x', '--audit-log-version=audit.k8s.io/v1beta1'], 'invalid group version, allowed versions are ["audit.k8s.io/v1" "audit.svc.io/v1"]'],
    [['--audit-webhook-batch-throttle-qps=abc'], 'invalid argument "abc" for "--audit-webhook-batch-throttle-qps" flag: strconv.ParseFloat: parsing "abc": invalid syntax'],
  ];
  for (const [argv, msg] of bad) it(`refuses ${argv.at(-1)}`, () => assert.throws(() => parse(...argv), (e: Error) => e instanceof FlagError && e.message === msg || assert.fail(e.message)));

  it('options of a backend that is off are not checked', () => {
    assert.equal(parse('--audit-log-format=xml').log.format, 'xml');
  });

  it('a bad policy file stops the start, naming the field and the file', () => {
    const f = join(tempDir('svc-auditflags-'), 'p.yaml');
    writeFileSync(f, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Sometimes\n');
    assert.throws(() => parse(`--audit-policy-file=${f}`), {
      name: 'FlagError',
      message: `loading audit policy file: rules[0].level: Unsupported value: "Sometimes": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${f}`,
    });
  });
});

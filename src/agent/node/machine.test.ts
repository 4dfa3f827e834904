import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRouteInterface, hostMachine, loadavgTasks, meminfoBytes, prettyName, statField } from './machine.js';

test('machine file parsers', () => {
  const meminfo = 'MemTotal:        8141560 kB\nMemFree:          123 kB\nMemAvailable:    5000000 kB\n';
  const rows: [string, unknown, unknown][] = [
    ['MemTotal', meminfoBytes(meminfo, 'MemTotal'), 8141560 * 1024],
    ['MemAvailable', meminfoBytes(meminfo, 'MemAvailable'), 5000000 * 1024],
    ['absent field', meminfoBytes(meminfo, 'SwapTotal'), undefined],
    ['quoted PRETTY_NAME', prettyName('NAME="Debian"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n'), 'Debian GNU/Linux 12 (bookworm)'],
    ['bare PRETTY_NAME', prettyName('PRETTY_NAME=Alpine\n'), 'Alpine'],
    ['no os-release', prettyName(''), 'Linux'],
    ['default route', defaultRouteInterface('Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\nsvc0\t0058000A\t00000000\t0001\t0\t0\t0\t0000FFFF\neth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\n'), 'eth0'],
    ['no default route', defaultRouteInterface('Iface\tDestination\nlo\t0000007F\t00000000\t0001\t0\t0\t0\t000000FF\n'), ''],
    ['loadavg tasks', loadavgTasks('1.31 1.65 2.18 1/93 7420\n'), 93],
    ['cgroup stat field', statField('cache 5\ntotal_inactive_file 4096\ntotal_active_file 1\n', 'total_inactive_file'), 4096],
    ['absent stat field', statField('cache 5\n', 'total_inactive_file'), 0],
  ];
  for (const [name, got, want] of rows) assert.deepEqual(got, want, name);
});

test('the real machine gives plausible figures', () => {
  const m = hostMachine({ rootDir: '/' });
  assert.ok(m.cpus() >= 1);
  assert.ok(m.memoryCapacity() > 0 && m.memoryAvailable() <= m.memoryCapacity());
  const fs = m.rootFs();
  assert.ok(fs.capacityBytes > 0 && fs.availableBytes <= fs.capacityBytes);
  assert.ok(m.pids().max > 0 && m.pids().running > 0);
  assert.match(m.bootID(), /^[0-9a-f-]{36}$/);
  assert.ok(['amd64', 'arm64'].includes(m.architecture()));
  assert.notEqual(m.osImage(), '');
});

test('memory.available: capacity less the working set of the root memory cgroup, else MemAvailable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-machine-'));
  try {
    mkdirSync(join(dir, 'proc'));
    mkdirSync(join(dir, 'memcg'));
    writeFileSync(join(dir, 'proc', 'meminfo'), 'MemTotal: 1000 kB\nMemAvailable: 600 kB\n');
    const m = hostMachine({ rootDir: dir, procDir: join(dir, 'proc'), memoryCgroupDir: join(dir, 'memcg') });
    assert.equal(m.memoryAvailable(), 600 * 1024, 'no memory cgroup');
    writeFileSync(join(dir, 'memcg', 'memory.usage_in_bytes'), String(500 * 1024));
    writeFileSync(join(dir, 'memcg', 'memory.stat'), `total_inactive_file ${200 * 1024}\n`);
    assert.equal(m.memoryAvailable(), 700 * 1024);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../testing/tempdir.js';
import { etcHostsContent, etcHostsMount } from './etchosts.js';
import { testPod } from './testpods.js';

const LOCAL = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';

describe('managed /etc/hosts', () => {
  const table: { name: string; spec: Parameters<typeof testPod>[0]; ips: string[]; want: string }[] = [
    { name: 'pod IPs with the hostname', spec: {}, ips: ['10.88.0.2', 'fd00::2'], want: `${LOCAL}10.88.0.2\tweb\nfd00::2\tweb\n` },
    { name: 'a subdomain adds the FQDN', spec: { hostname: 'h', subdomain: 'sub' }, ips: ['10.88.0.2'], want: `${LOCAL}10.88.0.2\th.sub.ns1.svc.cluster.local\th\n` },
    { name: 'hostAliases appended', spec: { hostAliases: [{ ip: '10.0.0.1', hostnames: ['a.example', 'b.example'] }] }, ips: ['10.88.0.2'],
      want: `${LOCAL}10.88.0.2\tweb\n\n# Entries added by HostAliases.\n10.0.0.1\ta.example\tb.example\n` },
  ];
  for (const c of table) it(c.name, () => assert.equal(etcHostsContent(testPod(c.spec), c.ips, 'cluster.local'), c.want));

  it("host network: the node's hosts file plus aliases, written under the pod's folder", () => {
    const dir = tempDir('kr-hosts-');
    writeFileSync(join(dir, 'hosts'), '127.0.0.1 localhost\n192.168.1.10 node-1\n');
    const pod = testPod({ hostNetwork: true, hostAliases: [{ ip: '10.0.0.1', hostnames: ['x'] }] });
    const m = etcHostsMount(join(dir, 'pods'), pod, ['192.168.1.10'], 'cluster.local', join(dir, 'hosts'));
    assert.deepEqual(m, { containerPath: '/etc/hosts', hostPath: join(dir, 'pods', 'uid-1', 'etc-hosts'), readonly: false, selinuxRelabel: true });
    assert.equal(readFileSync(m.hostPath, 'utf8'), '127.0.0.1 localhost\n192.168.1.10 node-1\n\n# Entries added by HostAliases.\n10.0.0.1\tx\n');
  });
});

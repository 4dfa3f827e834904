import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import type { ApiHttp } from '../../client/http.js';
import { RemoteInformer } from './informer.js';

const obj = (name: string, rv: string): ApiObject => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });

/** A server in a box: lists answered from `pages`, watches handed to the test. */
function fakeHttp(lists: ApiObject[][][]) {
  const paths: string[] = [];
  const watches: { path: string; send(type: string, o: unknown): void; end(err?: Error): void; closed: boolean }[] = [];
  let listNo = 0;
  let page = 0;
  const http = {
    async json(_m: string, path: string) {
      paths.push(path);
      const pages = lists[Math.min(listNo, lists.length - 1)]!;
      const items = pages[page]!;
      const last = page === pages.length - 1;
      const answer = { metadata: { resourceVersion: `${10 * (listNo + 1)}`, ...(last ? {} : { continue: `c${page + 1}` }) }, items };
      if (last) {
        listNo++;
        page = 0;
      } else page++;
      return answer;
    },
    stream(path: string, onLine: (l: string) => void, onEnd: (err?: Error) => void) {
      const w = { path, closed: false, send: (type: string, o: unknown) => onLine(JSON.stringify({ type, object: o })), end: (err?: Error) => onEnd(err) };
      watches.push(w);
      return { close: () => { w.closed = true; } };
    },
  };
  return { http: http as unknown as ApiHttp, paths, watches };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), 'condition not met');
};

describe('RemoteInformer', () => {
  it('lists page by page, watches from the list\'s version, and follows events and bookmarks', async () => {
    const { http, paths, watches } = fakeHttp([[[obj('a', '1')], [obj('b', '2')]]]);
    const inf = new RemoteInformer(http, '/api/v1/pods', 'labelSelector=type%3Dsimulated');
    const seen: string[] = [];
    inf.addHandler({ onAdd: (o) => seen.push(`add ${o.metadata.name}`), onUpdate: (_x, o) => seen.push(`update ${o.metadata.name}`), onDelete: (o) => seen.push(`delete ${o.metadata.name}`) });
    await inf.start();
    await inf.waitForSync();
    assert.deepEqual(paths, ['/api/v1/pods?labelSelector=type%3Dsimulated&limit=500', '/api/v1/pods?labelSelector=type%3Dsimulated&limit=500&continue=c1']);
    assert.equal(watches[0]!.path, '/api/v1/pods?labelSelector=type%3Dsimulated&watch=true&allowWatchBookmarks=true&resourceVersion=10');
    watches[0]!.send('MODIFIED', obj('a', '11'));
    watches[0]!.send('MODIFIED', obj('a', '11'));
    watches[0]!.send('ADDED', obj('c', '12'));
    watches[0]!.send('DELETED', obj('b', '13'));
    watches[0]!.send('BOOKMARK', { metadata: { resourceVersion: '20' } });
    assert.deepEqual(seen, ['add a', 'add b', 'update a', 'add c', 'delete b']);
    assert.equal(inf.get('ns', 'a')!.metadata.resourceVersion, '11');
    assert.equal(inf.get('ns', 'b'), undefined);
    // a watch the server ends goes on from the last version seen
    watches[0]!.end();
    assert.equal(watches[1]!.path.endsWith('resourceVersion=20'), true, watches[1]!.path);
    inf.stop();
  });

  it('relists after a 410 ERROR event and reconciles: gone objects deleted, changed ones updated', async () => {
    const { http, watches } = fakeHttp([[[obj('a', '1'), obj('b', '2')]], [[obj('a', '5'), obj('d', '6')]]]);
    const inf = new RemoteInformer(http, '/api/v1/pods');
    const seen: string[] = [];
    await inf.start();
    inf.addHandler({ onAdd: (o) => seen.push(`add ${o.metadata.name}`), onUpdate: (_x, o) => seen.push(`update ${o.metadata.name}`), onDelete: (o) => seen.push(`delete ${o.metadata.name}`) });
    watches[0]!.send('ERROR', { kind: 'Status', code: 410, reason: 'Expired' });
    assert.ok(watches[0]!.closed);
    await until(() => watches.length === 2);
    assert.deepEqual(seen, ['add a', 'add b', 'delete b', 'update a', 'add d']);
    assert.ok(watches[1]!.path.endsWith('resourceVersion=20'));
    inf.stop();
  });
});

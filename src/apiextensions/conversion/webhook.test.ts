// Webhook conversion against a real HTTPS callback server through the
// admission callback client: the ConversionReview kube sends (v1 and v1beta1),
// lists in one call, objects already in the version not sent, and the answers
// kube refuses, with its texts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AdmissionCallbackClient } from '../../webhook/callback.js';
import { startCallbackServer, type CallbackAnswer, type CallbackRequest, type CallbackServer } from '../../testing/webhookserver.js';
import { converterFor, CrConversionError, type CrConverter } from './index.js';
import { crontabs } from './testcrd.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { kind: string; apiVersion: string; request: { uid: string; desiredAPIVersion: string; objects: any[] }; response: unknown };
type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

const V1 = 'stable.example.com/v1';
const V2 = 'stable.example.com/v2';
const tab = (apiVersion: string, name = 'a', extra: Partial<Obj> = {}): Obj => ({
  apiVersion, kind: 'CronTab',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '5', labels: { app: name } },
  spec: { cron: '*' }, ...extra,
});
const never = new Promise<CallbackAnswer>(() => undefined);

/** A webhook that converts correctly: target apiVersion, spec.cron → spec.schedule, a label added; `edit` spoils the answer. */
function converting(edit: (review: Record<string, unknown>, objects: Obj[]) => void = () => undefined) {
  return (r: CallbackRequest): CallbackAnswer => {
    const review = JSON.parse(r.body) as Review;
    const objects: Obj[] = review.request.objects.map((o: Obj) => ({
      ...o, apiVersion: review.request.desiredAPIVersion,
      metadata: { ...o.metadata, labels: { ...(o.metadata.labels as object), converted: 'yes' } },
      spec: { schedule: (o.spec as { cron: string }).cron },
    }));
    const answer: Record<string, unknown> = { kind: 'ConversionReview', apiVersion: review.apiVersion, response: { uid: review.request.uid, convertedObjects: objects, result: { status: 'Success' } } };
    edit(answer, objects);
    return { body: JSON.stringify(answer) };
  };
}

describe('webhook conversion', () => {
  let server: CallbackServer;
  let answer: (r: CallbackRequest) => CallbackAnswer | Promise<CallbackAnswer> = converting();
  let client: AdmissionCallbackClient;
  const resolved: string[] = [];

  before(async () => {
    server = await startCallbackServer({ hosts: ['hook.web.svc'], handle: (r) => answer(r) });
    client = new AdmissionCallbackClient({
      resolveService: async (ns, name, port) => {
        resolved.push(`${ns}/${name}:${port}`);
        return { host: '127.0.0.1', port: server.port };
      },
    });
  });
  after(async () => {
    client.close();
    await server.close();
  });

  const converter = (reviewVersions: string[] = ['v1', 'v1beta1'], o: { timeoutMs?: number; service?: boolean } = {}): CrConverter => {
    const clientConfig = o.service
      ? { service: { namespace: 'web', name: 'hook', path: '/crd/convert', port: 443 }, caBundle: server.caBundle }
      : { url: `https://localhost:${server.port}/convert`, caBundle: server.caBundle };
    return converterFor(crontabs({ strategy: 'Webhook', webhook: { conversionReviewVersions: reviewVersions, clientConfig } }), {
      caller: client, newUid: () => 'uid-of-review', ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    });
  };
  const converted = (o: Obj, apiVersion: string): Obj => ({ ...o, apiVersion, metadata: { ...o.metadata, labels: { ...(o.metadata.labels as object), converted: 'yes' } }, spec: { schedule: '*' } });

  for (const version of ['v1', 'v1beta1']) {
    it(`sends a ${version} ConversionReview and takes the converted object, metadata restored`, async () => {
      answer = converting((review, objects) => {
        objects[0]!.metadata.resourceVersion = '999';
        objects[0]!.metadata.finalizers = ['added'];
        void review;
      });
      server.seen.length = 0;
      const original = tab(V1);
      const out = await converter([version, 'v1']).convert([original], V2);
      assert.deepEqual(out, [converted(original, V2)]);
      assert.equal(original.apiVersion, V1, 'the input is not modified');
      assert.equal(server.seen.length, 1);
      const seen = server.seen[0]!;
      assert.equal(seen.url, '/convert?timeout=30s');
      assert.equal(seen.httpVersion, '1.1');
      assert.equal(seen.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(seen.body), {
        kind: 'ConversionReview', apiVersion: `apiextensions.k8s.io/${version}`,
        request: { uid: 'uid-of-review', desiredAPIVersion: V2, objects: [original] },
        response: { uid: '', convertedObjects: null, result: { metadata: {} } },
      });
    });
  }

  it('converts a list in one call, sending only the items not in the target version, in order', async () => {
    answer = converting();
    server.seen.length = 0;
    const items = [tab(V1, 'a'), tab(V2, 'b'), tab(V1, 'c')];
    const out = await converter().convert(items, V2);
    assert.deepEqual(out, [converted(items[0]!, V2), items[1], converted(items[2]!, V2)]);
    assert.equal(server.seen.length, 1);
    assert.deepEqual((JSON.parse(server.seen[0]!.body) as Review).request.objects.map((o: Obj) => o.metadata.name), ['a', 'c']);
  });

  it('calls nobody when every object is in the target version, or for an object of only apiVersion and kind', async () => {
    answer = () => assert.fail('no call expected');
    server.seen.length = 0;
    const items = [tab(V2, 'a'), tab(V2, 'b')];
    assert.deepEqual(await converter().convert(items, V2), items);
    assert.deepEqual(await converter().convert([tab(V2)], V2), [tab(V2)]);
    assert.deepEqual(await converter().convert([{ apiVersion: V1, kind: 'CronTab' }], V2), [{ apiVersion: V2, kind: 'CronTab' }]);
    assert.equal(server.seen.length, 0);
  });

  it('calls a service reference at its path, resolved through the service resolver, verified as <name>.<namespace>.svc', async () => {
    answer = converting();
    server.seen.length = 0;
    resolved.length = 0;
    const out = await converter(['v1'], { service: true }).convert([tab(V2)], V1);
    assert.deepEqual(out, [converted(tab(V2), V1)]);
    assert.deepEqual(resolved, ['web/hook:443']);
    assert.equal(server.seen[0]!.url, '/crd/convert?timeout=30s');
    assert.equal(server.seen[0]!.servername, 'hook.web.svc');
  });

  const GVK = 'stable.example.com/v1, Kind=CronTab';
  const LIST = 'stable.example.com/v2, Kind=CronTabList';
  const url = () => `https://localhost:${server.port}/convert`;
  const single = [tab(V1)];
  const list = [tab(V1, 'a'), tab(V2, 'b'), tab(V1, 'c')];
  const rows: { name: string; answer: () => (r: CallbackRequest) => CallbackAnswer | Promise<CallbackAnswer>; objects?: Obj[]; versions?: string[]; timeoutMs?: number; want: () => string }[] = [
    { name: 'wrong uid (v1)', answer: () => converting((a) => ((a.response as { uid: string }).uid = 'other')), want: () => `conversion webhook for ${GVK} failed: expected response.uid="uid-of-review", got "other"` },
    { name: 'failed status with a message', answer: () => converting((a) => ((a.response as { result: unknown }).result = { status: 'Failure', message: 'v1 cannot hold spec.x' })), want: () => `conversion webhook for ${GVK} failed: v1 cannot hold spec.x` },
    { name: 'failed status without message', answer: () => converting((a) => ((a.response as { result: unknown }).result = { status: 'Failure' })), want: () => `conversion webhook for ${GVK} failed: response.result.status was 'Failure', not 'Success'` },
    { name: 'no response', answer: () => converting((a) => delete a.response), want: () => `conversion webhook for ${GVK} failed: no response provided` },
    { name: 'too many objects', answer: () => converting((_a, objects) => objects.push(objects[0]!)), want: () => `conversion webhook for ${GVK} returned 2 objects, expected 1` },
    { name: 'too few objects in a list', objects: list, answer: () => converting((_a, objects) => objects.pop()), want: () => `conversion webhook for ${LIST} returned 1 objects, expected 2` },
    { name: 'changed name', answer: () => converting((_a, objects) => (objects[0]!.metadata.name = 'b')), want: () => `conversion webhook for ${GVK} returned invalid object: must have the same name: a != b` },
    { name: 'changed uid in a list (kube counts the index from 1 here)', objects: list, answer: () => converting((_a, objects) => (objects[1]!.metadata.uid = 'x')), want: () => `conversion webhook for ${LIST} returned invalid converted object at index 2: must have the same UID: uid-c != x` },
    { name: 'wrong apiVersion', answer: () => converting((_a, objects) => (objects[0]!.apiVersion = V1)), want: () => `conversion webhook for ${GVK} returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)` },
    { name: 'wrong apiVersion in a list', objects: list, answer: () => converting((_a, objects) => (objects[0]!.apiVersion = 'stable.example.com/v3')), want: () => `conversion webhook for ${LIST} returned invalid converted object at index 1: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v3)` },
    { name: 'wrong kind', answer: () => converting((_a, objects) => (objects[0]!.kind = 'CronJob')), want: () => `conversion webhook for ${GVK} returned invalid object at index 0: invalid kind (expected CronTab, received CronJob)` },
    { name: 'an object without kind', answer: () => converting((_a, objects) => { objects[0] = { apiVersion: V2, metadata: { name: 'a' } } as Obj; }), want: () => `Object 'Kind' is missing in '{"apiVersion":"stable.example.com/v2","metadata":{"name":"a"}}'` },
    { name: 'a list item that is no object (index from 0 here)', objects: list, answer: () => converting((_a, objects) => { (objects as unknown[])[1] = 'x'; }), want: () => `conversion webhook for ${LIST} returned invalid converted object at index 1: json: cannot unmarshal string into Go value of type map[string]interface {}` },
    { name: 'an invalid label', answer: () => converting((_a, objects) => (objects[0]!.metadata.labels = { 'a/b/c': 'x' })), want: () => `conversion webhook for ${GVK} returned invalid metadata: metadata.labels: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')` },
    { name: 'metadata dropped from a list item', objects: list, answer: () => converting((_a, objects) => { objects[0] = { apiVersion: V2, kind: 'CronTab', metadata: { name: 'a', namespace: 'ns', uid: 'uid-a', labels: 7 } } as unknown as Obj; }), want: () => `conversion webhook for ${LIST} returned invalid metadata in object at index 1: invalid metadata.labels of type int64 in converted object` },
    { name: 'a v1beta1 answer to a v1 review', answer: () => converting((a) => (a.apiVersion = 'apiextensions.k8s.io/v1beta1')), want: () => `conversion webhook for ${GVK} failed: converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion` },
    { name: 'HTTP 500 without a Status', answer: () => () => ({ status: 500, body: 'boom', contentType: 'text/plain' }), want: () => `conversion webhook for ${GVK} failed: an error on the server ("boom") has prevented the request from succeeding` },
    { name: 'HTTP 403 with a Status', answer: () => () => ({ status: 403, body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'go away', code: 403 }) }), want: () => `conversion webhook for ${GVK} failed: go away` },
    { name: 'HTTP 404 without a body', answer: () => () => ({ status: 404, body: '' }), want: () => `conversion webhook for ${GVK} failed: the server could not find the requested resource` },
    { name: 'an empty 200', answer: () => () => ({ status: 200, body: '' }), want: () => `conversion webhook for ${GVK} failed: 0-length response with status code: 200 and content type: application/json` },
    { name: 'a body that is not JSON', answer: () => () => ({ body: '{"kind":' }), want: () => `conversion webhook for ${GVK} failed: couldn't get version/kind; json parse error: unexpected end of JSON input` },
    { name: 'no review version this server speaks', versions: ['v2'], answer: () => () => assert.fail('no call expected'), want: () => 'no supported conversion review versions' },
    { name: 'time-out', timeoutMs: 300, answer: () => () => never, want: () => `conversion webhook for ${GVK} failed: Post "${url()}?timeout=1s": context deadline exceeded` },
  ];
  for (const r of rows) {
    it(`refuses: ${r.name}`, async () => {
      answer = r.answer();
      const c = converter(r.versions ?? ['v1', 'v1beta1'], r.timeoutMs !== undefined ? { timeoutMs: r.timeoutMs } : {});
      await assert.rejects(c.convert(r.objects ?? single, V2), (err: unknown) => {
        assert.ok(err instanceof CrConversionError, String(err));
        assert.deepEqual(err.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: r.want(), code: 500 });
        return true;
      });
    });
  }

  it('a caBundle that does not sign the server fails as Go\'s TLS client does', async () => {
    answer = converting();
    const other = await startCallbackServer({});
    try {
      const c = converterFor(crontabs({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `https://localhost:${server.port}/convert`, caBundle: other.caBundle } } }), { caller: client });
      await assert.rejects(c.convert([tab(V1)], V2), (err: unknown) => {
        assert.ok(err instanceof CrConversionError);
        assert.equal(err.message, `conversion webhook for ${GVK} failed: Post "https://localhost:${server.port}/convert?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
        return true;
      });
    } finally {
      await other.close();
    }
  });
});

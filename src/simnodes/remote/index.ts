// Simulated nodes against any API server over HTTPS (`svc simulate-nodes`):
// the kubelets impersonate their nodes through the kubeconfig's user; the
// informers list and watch as that user (pods of every namespace, the Nodes
// labelled type=simulated).
import type { Connection } from '../../webhook/connfile.js';
import type { Cluster } from '../api.js';
import { SIMULATED_LABEL } from '../node.js';
import { ApiHttp } from '../../client/http.js';
import { RemoteInformer, } from './informer.js';
import { collectionPath, RemoteKubelet } from './kubelet.js';

export interface RemoteCluster extends Cluster {
  readonly url: string;
  close(): void;
}

export function remoteCluster(conn: Connection): RemoteCluster {
  const http = new ApiHttp(conn);
  const informers = new Map<string, RemoteInformer>();
  return {
    url: http.url,
    kubelet: (name) => new RemoteKubelet(http, name),
    informer(group, resource) {
      const key = `${group}/${resource}`;
      let inf = informers.get(key);
      if (!inf) {
        const selector = group === '' && resource === 'nodes' ? `labelSelector=${encodeURIComponent(`${SIMULATED_LABEL.key}=${SIMULATED_LABEL.value}`)}` : '';
        inf = new RemoteInformer(http, collectionPath({ group, version: 'v1', resource }, ''), selector);
        informers.set(key, inf);
      }
      return inf;
    },
    close() {
      for (const i of informers.values()) i.stop();
      http.close();
    },
  };
}

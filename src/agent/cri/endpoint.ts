// --container-runtime-endpoint / --image-service-endpoint as the kubelet reads
// them on Linux (pkg/kubelet/util GetAddressAndDialer): a URL whose scheme must
// be `unix`, the socket being the URL's path (`unix:///run/x.sock`,
// `unix:/run/x.sock`); an endpoint without a scheme is taken as `unix://` +
// endpoint, with a deprecation notice.

export interface RuntimeEndpoint {
  /** The unix socket's path. */
  readonly path: string;
  /** Set when the endpoint had no scheme (kube logs the same notice). */
  readonly deprecation?: string;
}

export class EndpointError extends Error {
  override readonly name = 'EndpointError';
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

export function parseEndpoint(endpoint: string): RuntimeEndpoint {
  if (!SCHEME.test(endpoint)) {
    const url = `unix://${endpoint}`;
    return { path: socketPath(url, endpoint), deprecation: `Using "${endpoint}" as endpoint is deprecated, please consider using full URL format "${url}"` };
  }
  return { path: socketPath(endpoint, endpoint) };
}

function socketPath(url: string, given: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new EndpointError(`invalid endpoint "${given}"`);
  }
  const scheme = u.protocol.slice(0, -1).toLowerCase();
  if (scheme === 'tcp') throw new EndpointError('only support unix socket endpoint');
  if (scheme !== 'unix') throw new EndpointError(`protocol "${scheme}" not supported`);
  // Like Go's url.URL.Path: the path part, percent-decoded; `unix://host/x` keeps only `/x`, as kube does.
  const path = decodeURIComponent(u.pathname);
  if (path === '' || !path.startsWith('/')) throw new EndpointError(`endpoint "${given}" names no absolute socket path`);
  return path;
}

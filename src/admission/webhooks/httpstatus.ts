// What a webhook's non-2xx answer reads as (client-go's transformResponse):
// a Status body gives its own message; any other body gets the generic text
// of apimachinery's NewGenericServerResponse for the code.
const GENERIC: Readonly<Record<number, string>> = {
  400: 'the server rejected our request for an unknown reason',
  401: 'the server has asked for the client to provide credentials',
  403: 'the server does not allow access to the requested resource',
  404: 'the server could not find the requested resource',
  405: 'the server does not allow this method on the requested resource',
  406: 'the server was unable to respond with a content type that the client supports',
  409: 'the server reported a conflict',
  410: 'the server has asked for the client to provide credentials',
  415: 'the server was unable to respond with a content type that the client supports',
  422: 'the server rejected our request due to an error in our request',
  429: 'the server has received too many requests and has asked us to try again later',
  503: 'the server is currently unable to handle the request',
  504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
};

export function unexpectedStatusMessage(code: number, body: Buffer): string {
  const text = body.toString('utf8').trim();
  try {
    const v = JSON.parse(text) as { kind?: unknown; message?: unknown };
    if (v && v.kind === 'Status' && typeof v.message === 'string' && v.message !== '') return v.message;
  } catch {
    // not JSON: the generic text below
  }
  const generic = GENERIC[code];
  if (generic) return generic;
  if (code >= 500) return `an error on the server (${JSON.stringify(text)}) has prevented the request from succeeding`;
  return `unknown (${code})`;
}

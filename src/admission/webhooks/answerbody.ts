// A webhook's answer body decoded as kube's webhook client decodes it (client-go
// Result.Into through apimachinery's universal deserializer): a body starting
// with `{` is JSON, anything else is tried as YAML; the first read looks for
// apiVersion/kind (meta.Interpret), so a malformed answer fails with that
// step's Go wording, e.g. `couldn't get version/kind; json parse error:
// invalid character 'h' in literal true (expecting 'r')`.
import { goJsonSyntaxError } from '../../schema/json.js';
import { parseGoYaml } from '../../endpoints/yaml.js';

const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const INTERPRET = "couldn't get version/kind; json parse error: ";

/** Why an answer body did not decode, in kube's words. */
export class AnswerDecodeError extends Error {
  override readonly name = 'AnswerDecodeError';
}

/** The decoded answer (an object, or null for a YAML/JSON null), or an AnswerDecodeError. */
export function decodeAnswerBody(body: Buffer, status: number, contentType: string | undefined): unknown {
  if (body.length === 0) throw new AnswerDecodeError(`0-length response with status code: ${status} and content type: ${contentType ?? 'application/json'}`);
  const text = body.toString('utf8');
  if (/^\s*\{/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      throw new AnswerDecodeError(INTERPRET + (goJsonSyntaxError(body) ?? 'unexpected end of JSON input'));
    }
  }
  let value: unknown;
  try {
    value = parseGoYaml(text, { uniqueKeys: false });
  } catch (err) {
    throw new AnswerDecodeError(`error converting YAML to JSON: yaml: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`);
  }
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new AnswerDecodeError(`${INTERPRET}json: cannot unmarshal ${goJsonType(value)} into Go value of type ${FIND_KIND_TYPE}`);
  return value;
}

function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  return 'string';
}

// Static token file authentication (--token-auth-file): a CSV file with at
// least three columns, token,user,uid, and an optional quoted fourth column of
// comma-separated groups, as kube-apiserver reads it.
import { readFileSync } from 'node:fs';
import { bearerToken, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import type { UserInfo } from './user.js';

export class TokenFileAuthenticator implements Authenticator {
  readonly name = 'token-file';
  private constructor(private readonly tokens: ReadonlyMap<string, UserInfo>) {}

  static fromFile(path: string): TokenFileAuthenticator {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`cannot read --token-auth-file ${path}: ${(err as Error).message}`);
    }
    return new TokenFileAuthenticator(parseTokenCsv(text, path));
  }

  static fromCsv(text: string): TokenFileAuthenticator {
    return new TokenFileAuthenticator(parseTokenCsv(text, 'tokens'));
  }

  authenticate(req: AuthRequest): AuthResult | null {
    const token = bearerToken(req.headers);
    if (token === undefined) return null;
    const user = this.tokens.get(token);
    // not ours: the token union (tokenunion.ts) answers "invalid bearer token" when no one accepts it
    return user ? { user } : null;
  }
}

/** Parses RFC 4180 CSV records (quoted fields may hold commas and doubled quotes). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') record.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      if (record.length > 1 || record[0] !== '') records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  record.push(field);
  if (record.length > 1 || record[0] !== '') records.push(record);
  return records;
}

function parseTokenCsv(text: string, source: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  parseCsv(text).forEach((rec, i) => {
    if (rec[0]?.startsWith('#')) return;
    if (rec.length < 3) throw new Error(`${source}: line ${i + 1}: token file needs at least 3 columns (token,user,uid), found ${rec.length}`);
    const [token, name, uid, groups] = rec.map((s) => s.trim());
    if (!token) throw new Error(`${source}: line ${i + 1}: empty token`);
    if (tokens.has(token!)) console.warn(`${source}: line ${i + 1}: duplicate token; the later line wins`);
    tokens.set(token!, { name: name!, uid: uid!, groups: groups ? groups.split(',').map((g) => g.trim()).filter(Boolean) : [] });
  });
  return tokens;
}

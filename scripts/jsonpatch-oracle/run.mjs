// The JSON patch oracle: runs every row of src/patch/jsonpatch.corpus.ts
// through github.com/evanphx/json-patch itself and reports each row whose
// expectation differs from what the Go library does. A development tool, not a
// test: it needs Go (GOPATH mode) and the library's source at the version
// Kubernetes v1.27 uses (v4.12.0), neither of which the project installs.
//
//   npx tsc -p . && node scripts/jsonpatch-oracle/run.mjs EVANPHX_DIR [GOPATH_WITH_PKG_ERRORS]
//
// EVANPHX_DIR holds the library's patch.go, errors.go and merge.go (e.g. `git
// show v4.12.0:patch.go` of its repository); the optional second directory is a
// GOPATH with github.com/pkg/errors (Debian: /usr/share/gocode).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '../../dist/src/patch');
const { CORPUS } = await import(join(dist, 'jsonpatch.corpus.js'));
const { goEncode } = await import(join(dist, 'rawjson.js'));
const { MAX_JSON_PATCH_COPY_BYTES } = await import(join(dist, 'jsonpatch.js'));

const [evanphx, extra = '/usr/share/gocode'] = process.argv.slice(2);
if (!evanphx) {
  console.error('usage: node scripts/jsonpatch-oracle/run.mjs EVANPHX_DIR [GOPATH_WITH_PKG_ERRORS]');
  process.exit(2);
}
const gopath = mkdtempSync(join(tmpdir(), 'jsonpatch-oracle-'));
try {
  const lib = join(gopath, 'src/github.com/evanphx/json-patch');
  mkdirSync(lib, { recursive: true });
  for (const f of ['patch.go', 'errors.go', 'merge.go']) cpSync(join(evanphx, f), join(lib, f));
  mkdirSync(join(gopath, 'src/oracle'), { recursive: true });
  cpSync(join(here, 'main.go'), join(gopath, 'src/oracle/main.go'));
  const input = CORPUS.map((r) => JSON.stringify({ doc: goEncode(JSON.parse(r.doc)), patch: r.patch, limit: r.maxCopyBytes ?? MAX_JSON_PATCH_COPY_BYTES })).join('\n') + '\n';
  const out = execFileSync('go', ['run', 'oracle'], {
    input,
    cwd: join(gopath, 'src/oracle'),
    env: { ...process.env, GOPATH: `${gopath}:${extra}`, GO111MODULE: 'off', GOFLAGS: '', GOCACHE: join(gopath, 'cache') },
    maxBuffer: 64 << 20,
  }).toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
  let differences = 0;
  CORPUS.forEach((row, i) => {
    const got = out[i];
    const want = row.want !== undefined ? { result: row.want } : row.panic ? { panic: true } : { error: row.error };
    const same = row.panic ? got.panic !== undefined : JSON.stringify(got) === JSON.stringify(want);
    if (same) return;
    differences++;
    console.log(`DIFFERS ${row.name}\n  corpus: ${JSON.stringify(want)}\n  evanphx: ${JSON.stringify(got)}`);
  });
  console.log(`${CORPUS.length} rows, ${differences} differ`);
  process.exitCode = differences ? 1 : 0;
} finally {
  rmSync(gopath, { recursive: true, force: true });
}

// The admission flags: parsed into options, refused with kube's messages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError, parseFlags } from './flags.js';
import { ADMISSION_FLAGS, admissionOptions } from './admissionflags.js';

const parse = (argv: string[]) => admissionOptions(parseFlags(ADMISSION_FLAGS, argv).values).admission;

describe('admission flags', () => {
  it('none: empty lists, no file', () => assert.deepEqual(parse([]), { enable: [], disable: [] }));
  it('comma lists, repeated flags add up, a file', () => {
    assert.deepEqual(parse(['--enable-admission-plugins=AlwaysDeny,AlwaysAdmit', '--disable-admission-plugins', 'Priority', '--disable-admission-plugins=NamespaceLifecycle', '--admission-control-config-file=/a.yaml']),
      { enable: ['AlwaysDeny', 'AlwaysAdmit'], disable: ['Priority', 'NamespaceLifecycle'], configFile: '/a.yaml' });
  });
  const bad: [string[], string][] = [
    [['--enable-admission-plugins=Foo'], 'enable-admission-plugins plugin "Foo" is unknown'],
    [['--disable-admission-plugins=Bar'], 'disable-admission-plugins plugin "Bar" is unknown'],
    [['--enable-admission-plugins=AlwaysDeny', '--disable-admission-plugins=AlwaysDeny'], '[AlwaysDeny] in enable-admission-plugins and disable-admission-plugins overlapped'],
  ];
  for (const [argv, message] of bad) {
    it(argv.join(' '), () => assert.throws(() => parse(argv), (e: unknown) => e instanceof FlagError && e.message === message));
  }
  it('the help lists every plugin', () => assert.match(ADMISSION_FLAGS[0]!.help, /AlwaysAdmit, AlwaysDeny, AlwaysPullImages, CertificateApproval/));
  describe('--admission-control (deprecated)', () => {
    it('names exactly the plugins that run: every other one is disabled', () => {
      const a = parse(['--admission-control=NamespaceLifecycle,ServiceAccount']);
      assert.deepEqual(a.enable, ['NamespaceLifecycle', 'ServiceAccount']);
      assert.ok(a.disable!.includes('Priority') && !a.disable!.includes('ServiceAccount'));
      assert.deepEqual(parse(['--admission-control=']).enable, []);
    });
    it('prints pflag\'s deprecation notice', () => {
      assert.deepEqual(parseFlags(ADMISSION_FLAGS, ['--admission-control=AlwaysAdmit']).warnings,
        ['Flag --admission-control has been deprecated, Use --enable-admission-plugins or --disable-admission-plugins instead. Will be removed in a future version.']);
    });
    const refused: [string[], string][] = [
      [['--admission-control=AlwaysAdmit', '--enable-admission-plugins=AlwaysDeny'], 'admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive'],
      [['--admission-control=Nope'], 'admission-control plugin "Nope" is unknown'],
    ];
    for (const [argv, message] of refused) {
      it(argv.join(' '), () => assert.throws(() => parse(argv), (e: unknown) => e instanceof FlagError && e.message === message));
    }
  });
});

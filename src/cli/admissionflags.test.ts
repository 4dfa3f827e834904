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
});

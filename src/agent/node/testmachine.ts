// A machine given as a table of figures, for the node agent's tests.
import type { FsFigures, MachineReader } from './machine.js';

export interface MachineTable {
  cpus: number;
  memoryCapacity: number;
  memoryAvailable: number;
  rootFs: FsFigures;
  hugePages: Record<string, number>;
  pids: { running: number; max: number };
  appArmor: boolean;
  ip: string;
}

export const GI = 1024 ** 3;

export function tableMachine(t: Partial<MachineTable> = {}): MachineReader & { figures: MachineTable } {
  const figures: MachineTable = {
    cpus: 2, memoryCapacity: 4 * GI, memoryAvailable: 3 * GI,
    rootFs: { capacityBytes: 100 * GI, availableBytes: 60 * GI, inodes: 1_000_000, inodesFree: 900_000 },
    hugePages: {}, pids: { running: 300, max: 4_194_304 }, appArmor: false, ip: '10.0.0.5', ...t,
  };
  return {
    figures,
    cpus: () => figures.cpus,
    memoryCapacity: () => figures.memoryCapacity,
    memoryAvailable: () => figures.memoryAvailable,
    rootFs: () => figures.rootFs,
    hugePages: () => figures.hugePages,
    pids: () => figures.pids,
    machineID: () => '0123456789abcdef0123456789abcdef',
    systemUUID: () => '',
    bootID: () => '11111111-2222-3333-4444-555555555555',
    kernelVersion: () => '6.1.0-test',
    osImage: () => 'Debian GNU/Linux 12 (bookworm)',
    architecture: () => 'amd64',
    defaultRouteIP: () => figures.ip,
    appArmorEnabled: () => figures.appArmor,
  };
}

// Commands other than serve (control-API shortcuts, scenario runner) register here.
import type { Argv } from 'yargs';

export type CommandModule = (y: Argv) => Argv;
export const COMMANDS: CommandModule[] = [];

// Commands other than serve (control-API shortcuts, scenario runner) register here.
import type { Argv } from 'yargs';
import { controlCommands } from './control-commands.js';
import { resourceCommands } from './resource-commands.js';
import { scenarioCommand } from './scenario-command.js';

export type CommandModule = (y: Argv) => Argv;
export const COMMANDS: CommandModule[] = [scenarioCommand, controlCommands, resourceCommands];

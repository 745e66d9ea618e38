// Commands other than serve (scenario runner, wait, control-API shortcuts) register here.
import type { Argv } from 'yargs';
import { controlCommands } from './control-commands.js';
import { resourceCommands } from './resource-commands.js';
import { scenarioCommand } from './scenario-command.js';
import { snapshotCommands } from './snapshot-commands.js';
import { waitCommand } from './wait.js';

export type CommandModule = (y: Argv) => Argv;
export const COMMANDS: CommandModule[] = [scenarioCommand, waitCommand, controlCommands, resourceCommands, snapshotCommands];

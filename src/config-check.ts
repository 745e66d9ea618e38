// The settings a sandbox refuses to start with, each named as a user sets it (flag and environment
// variable; docs/configuration.md#serve-options). boot() checks them first, so that `serve` (exit 2)
// and startSandbox() (a rejection) refuse alike, before anything is opened.
import { envVar, SERVE_OPTIONS, type Config } from './config.js';
import { MAX_RETRY_SCHEDULE_SECONDS } from './domain/time-bounds.js';
import { parseTargetPolicy, webhookUrlProblem } from './domain/webhook-targets.js';
import { parseAllowedHosts } from './http/cross-site.js';

/** A setting the sandbox cannot start with; its message names the setting. */
export class ConfigError extends Error {}

/** "--admin-token (PIX_SANDBOX_ADMIN_TOKEN)" for the Config key. */
function settingName(key: keyof Config): string {
  const option = SERVE_OPTIONS.find((o) => o.key === key);
  return option ? `--${option.flag} (${envVar(option.flag)})` : key;
}

/** Every problem of the settings, in one error (none: returns). */
export function checkConfig(config: Config): void {
  const problems: string[] = [];
  const refuse = (key: keyof Config, why: string) => problems.push(`${settingName(key)} ${why}`);
  if (config.adminToken !== null && config.adminToken.trim() === '')
    refuse('adminToken', 'is empty: give a token, or leave the setting out for an open control API');
  if (config.webhookUrl) {
    const problem = webhookUrlProblem(config.webhookUrl);
    if (problem) refuse('webhookUrl', problem);
  }
  const readable = (key: 'webhookHosts' | 'allowedHosts', parse: () => unknown) => {
    try {
      parse();
    } catch (e) {
      refuse(key, (e as Error).message);
    }
  };
  readable('webhookHosts', () => parseTargetPolicy(config.webhookHosts));
  readable('allowedHosts', () => parseAllowedHosts(config.allowedHosts));
  const schedule = config.webhookRetrySchedule;
  const total = schedule.reduce((sum, s) => sum + s, 0);
  if (schedule.some((s) => !Number.isFinite(s) || s < 0) || !(total <= MAX_RETRY_SCHEDULE_SECONDS))
    refuse('webhookRetrySchedule', `must be seconds of 0 or more, ${MAX_RETRY_SCHEDULE_SECONDS} (30 days) in all at most`);
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
}

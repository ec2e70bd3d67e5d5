/**
 * Environments whose terminal is far from the program: a terminal in a browser or a remote
 * editor, where every reply crosses a network (and a browser's event loop) and takes 100–300 ms,
 * with no `SSH_*` variable to say so. The probe gives these its long budget (docs/probe.md,
 * "Slow links"). Each row names the variable its host sets in the terminal's environment, with
 * the page that documents it. Hosts that set nothing of their own (ttyd exports only `TERM`,
 * default `xterm-256color`: https://github.com/tsl0922/ttyd/blob/main/src/server.c, the
 * `--terminal-type` option) cannot be told by their environment; for them the probe keeps
 * swallowing late replies until its sentinel comes.
 */
import { type Condition, matches } from '../core/condition.js';
import type { Env } from '../core/env-vars.js';

/** A host whose terminal is reached over a slow link, and how its environment shows it. */
export interface SlowLink {
  readonly id: string;
  /** Who sets the variable. */
  readonly name: string;
  readonly when: Condition;
  readonly source: string;
}

/** The hosts known to put their terminal behind a slow link, by the variable each sets. */
export const SLOW_LINKS: readonly SlowLink[] = [
  {
    id: 'codespaces',
    name: 'GitHub Codespaces (VS Code in a browser or remote)',
    when: { variable: 'CODESPACES', test: 'equals', value: 'true' },
    source:
      'https://docs.github.com/en/codespaces/developing-in-a-codespace/default-environment-variables-for-your-codespace',
  },
  {
    id: 'vscode-remote-containers',
    name: 'VS Code Dev Containers (and DevPod)',
    when: { variable: 'REMOTE_CONTAINERS', test: 'equals', value: 'true' },
    source: 'https://github.com/microsoft/vscode-remote-release/issues/3517 (and loft-sh/devpod#905)',
  },
  {
    id: 'code-server',
    name: 'code-server (VS Code in a browser)',
    when: { variable: 'VSCODE_PROXY_URI', test: 'set' },
    source: 'https://github.com/coder/code-server/pull/4681 ("VSCODE_PROXY_URI env var for use in the terminal")',
  },
  {
    id: 'jupyter',
    name: 'Jupyter Notebook / JupyterLab terminals',
    when: { variable: 'JUPYTER_SERVER_URL', test: 'set' },
    source:
      'https://github.com/jupyter/notebook/pull/218 ("$JUPYTER_SERVER_ROOT and $JUPYTER_SERVER_URL" in terminals)',
  },
];

/**
 * The slow link the environment names, or null. (An ssh session is told apart by `isRemote`:
 * any non-empty `SSH_*`, which covers VS Code Remote - SSH; a Wetty that logs in with ssh is
 * covered the same way, one that runs `login` is not: not checked here.)
 *
 * @example slowLinkFromEnv({ CODESPACES: 'true' })?.id // 'codespaces'
 */
export function slowLinkFromEnv(env: Env, links: readonly SlowLink[] = SLOW_LINKS): SlowLink | null {
  return links.find((link) => matches(env, link.when)) ?? null;
}

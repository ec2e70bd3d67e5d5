/**
 * Identity variables a terminal exports that outlive it: every program started from it inherits
 * them, terminals included (VS Code started from a kitty window carries `KITTY_WINDOW_ID`; ssh
 * forwards `LC_TERMINAL` under the usual `SendEnv LC_*`). A terminal that answered the probe is
 * named by its answers, and these never override it; `TERM_PROGRAM` and `TERM`, which every
 * terminal sets anew for its children, come before them (docs/terminals.md, "Identification").
 */

/** An inherited variable with the source that shows it leaking. */
export interface InheritedVariable {
  readonly variable: string;
  readonly source: string;
}

/** The identity variables that leak into other terminals' sessions. */
export const INHERITED_VARIABLES: readonly InheritedVariable[] = [
  { variable: 'KITTY_WINDOW_ID', source: 'test/e2e/findings/README.md (kitty-window-id: VS Code started from kitty)' },
  { variable: 'KITTY_PID', source: 'test/e2e/findings/README.md (kitty-window-id: KITTY_PID inherited too)' },
  {
    variable: 'LC_TERMINAL',
    source: 'https://iterm2.com/documentation-variables.html (LC_TERMINAL, forwarded by ssh)',
  },
  { variable: 'LC_TERMINAL_VERSION', source: 'https://iterm2.com/documentation-variables.html (LC_TERMINAL_VERSION)' },
  { variable: 'ITERM_SESSION_ID', source: 'https://iterm2.com/documentation-variables.html (ITERM_SESSION_ID)' },
  { variable: 'WEZTERM_PANE', source: 'https://wezterm.org/shell-integration.html (WEZTERM_PANE)' },
  { variable: 'KONSOLE_VERSION', source: 'https://konsole.kde.org/ (KONSOLE_VERSION, exported to children)' },
  {
    variable: 'GHOSTTY_RESOURCES_DIR',
    source: 'https://ghostty.org/docs/config/reference#shell-integration (exported to children)',
  },
  {
    variable: 'WT_SESSION',
    source: 'https://github.com/microsoft/terminal/issues/3948 (WT_SESSION reaches WSL and child terminals)',
  },
];

/** Whether `variable` is one that other terminals' sessions inherit. */
export function isInherited(variable: string): boolean {
  return INHERITED_VARIABLES.some((v) => v.variable === variable);
}

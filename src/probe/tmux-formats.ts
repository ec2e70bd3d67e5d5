/**
 * What tmux says about itself and its client when asked with format strings (`tmux display -p`,
 * `tmux show -Apv allow-passthrough`): no escape traffic at all, so nothing can leak onto the
 * screen or into a pane title. The asking is I/O (tmux-client.ts); this file only parses. Only
 * `#{client_termfeatures}` says whether the outer terminal draws sixel: tmux 3.5a claims sixel in
 * its own DA1 and XTSMGRAPHICS whatever the outer terminal is (docs/terminals.md, "tmux").
 */

/** The format `tmux display -p` is asked for: one field per line. */
export const TMUX_DISPLAY_FORMAT =
  '#{version}\n#{client_termtype}\n#{client_termfeatures}\n#{sixel_support}\n#{client_cell_width}\n#{client_cell_height}';

/** tmux's answers. Text fields are as tmux printed them (the caller escapes them for display). */
export interface TmuxFacts {
  /** `#{version}`: `3.5a`; null when empty. */
  readonly version: string | null;
  /** `#{client_termtype}`: the client terminal's XTVERSION body (`kitty(0.41.1)`, `XTerm(397)`); null when empty. */
  readonly clientTermtype: string | null;
  /** `#{client_termfeatures}`: `sixel`, `hyperlinks`, `sync`, `RGB`, … */
  readonly clientFeatures: readonly string[];
  /** `#{sixel_support}`: whether this tmux was built with sixel; null when tmux prints nothing for it (3.5a does). */
  readonly sixelSupport: boolean | null;
  /**
   * `#{client_cell_width}`x`#{client_cell_height}`: the client's cell in pixels as tmux sizes the
   * pictures it draws itself (whole cells of this); null when tmux printed no positive pair (before 3.4).
   */
  readonly clientCell: { readonly width: number; readonly height: number } | null;
  /** `allow-passthrough` of the pane: `off`, `on` (visible panes) or `all`; null when tmux did not say. */
  readonly allowPassthrough: 'off' | 'on' | 'all' | null;
}

const field = (text: string | undefined): string | null => {
  const trimmed = (text ?? '').trim();
  return trimmed === '' ? null : trimmed;
};

/** A cell side in pixels as tmux prints it: a whole number 1..1000, else null (unset, garbage). */
const pixels = (text: string | undefined): number | null => {
  const value = field(text);
  if (value === null || !/^\d{1,4}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= 1000 ? n : null;
};

/**
 * Parses the output of `tmux display -p TMUX_DISPLAY_FORMAT` and of `tmux show -Apv
 * allow-passthrough` (either may be null: not asked, failed or timed out). Null when neither says
 * anything: the caller falls back to probing passthrough with wrapped queries.
 *
 * @example parseTmuxFormats('3.5a\nfoot(1.21.0)\nRGB,sixel,sync\n1\n9\n18\n', 'all\n')?.clientCell // { width: 9, height: 18 }
 */
export function parseTmuxFormats(display: string | null, passthrough: string | null): TmuxFacts | null {
  const lines = display === null ? [] : display.replace(/\r/g, '').split('\n');
  const version = field(lines[0]);
  const clientTermtype = field(lines[1]);
  const clientFeatures = (field(lines[2]) ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const sixel = field(lines[3]);
  const cellWidth = pixels(lines[4]);
  const cellHeight = pixels(lines[5]);
  const mode = field(passthrough?.split('\n').find((l) => l.trim() !== ''));
  const allowPassthrough = mode === 'off' || mode === 'on' || mode === 'all' ? mode : null;
  // A display that printed no version is not tmux's format output (an error text, an old tmux).
  if (version === null && allowPassthrough === null) return null;
  return {
    version,
    clientTermtype,
    clientFeatures,
    sixelSupport: sixel === '1' ? true : sixel === '0' ? false : null,
    clientCell: cellWidth !== null && cellHeight !== null ? { width: cellWidth, height: cellHeight } : null,
    allowPassthrough,
  };
}

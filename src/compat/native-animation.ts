/**
 * Who plays an animation when the terminal can, instead of a redraw loop here: the one decision
 * `termsight show`, the Ink `<Image>` and `termsight/terminal-image` share (docs/render.md#animation).
 */
import type { ImageFormat } from '../decode/image.js';
import type { Protocol } from '../env/protocol.js';
import type { Env } from '../env/runtime.js';
import { usesPlaceholders } from '../render/backend.js';
import type { RenderOptions } from '../render/options.js';
import type { Report } from '../report/types.js';
import { identify } from '../terminals/identify.js';
import { holds, terminalByReplyName } from '../terminals/lookup.js';

/** Who plays an animation when the terminal can: kitty's own animation, or iTerm2 playing the GIF file. */
export type NativeAnimation = 'kitty' | 'iterm2';

/** The largest GIF file handed to iTerm2 to play (bigger ones are redrawn frame by frame): 8 MiB. */
export const ITERM2_GIF_LIMIT = 8 * 1024 * 1024;

/**
 * Whether the terminal plays an animation itself instead of a redraw loop here: kitty where the
 * terminal database says the terminal (from its reply, else its environment) animates, drawn
 * directly (not through a multiplexer, not as Unicode placeholders); iTerm2 for a GIF file of at
 * most `ITERM2_GIF_LIMIT` bytes. Else null (the redraw loop).
 *
 * @example nativeAnimation({ report, protocol: 'kitty', options: {}, format: 'gif', fileBytes: 1000 }) // 'kitty' in kitty
 */
export function nativeAnimation(input: {
  readonly report: Pick<Report, 'terminal' | 'multiplexer'>;
  readonly protocol: Protocol;
  readonly options: RenderOptions;
  readonly format: ImageFormat;
  readonly fileBytes: number;
  readonly env?: Env;
}): NativeAnimation | null {
  const { protocol, options } = input;
  if (input.report.multiplexer || options.multiplexer) return null;
  if (protocol === 'iterm2') return input.format === 'gif' && input.fileBytes <= ITERM2_GIF_LIMIT ? 'iterm2' : null;
  if (protocol !== 'kitty' || usesPlaceholders(protocol, options)) return null;
  const name = input.report.terminal.name;
  const named = name === null ? undefined : terminalByReplyName(name);
  const found = named
    ? { row: named, version: input.report.terminal.version }
    : input.env
      ? identify({ env: input.env })
      : null;
  return found && holds(found.row.facts.animation, found.version) ? 'kitty' : null;
}

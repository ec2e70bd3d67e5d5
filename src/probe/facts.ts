/**
 * What a terminal said about itself during a probe, decoded from its replies. Every field that a
 * reply decided keeps that reply as escaped text (`\e[?62;4c`), so the report can show it as the reason.
 */

/** One reply as received. */
export interface ReplyRecord {
  /** Which kind of sequence: CSI, DCS, APC or OSC. */
  readonly kind: 'csi' | 'dcs' | 'apc' | 'osc';
  /** The whole reply, escaped for display (`\e` for ESC, `\a` for BEL, `\xNN` for other controls). */
  readonly text: string;
}

/** A terminal's self-description from XTVERSION (`CSI > q`). */
export interface TerminalName {
  readonly name: string;
  readonly version: string | null;
  readonly reply: string;
}

/** Secondary device attributes (`CSI > c`): terminal type, firmware version, ROM cartridge. */
export interface SecondaryAttributes {
  readonly type: number;
  readonly version: number | null;
  readonly rom: number | null;
  readonly reply: string;
}

/** Why a probe wrote nothing. */
export type ProbeSkipReason = 'not a terminal' | 'TERM=dumb' | 'background process group';

/** Everything the replies said. Absent fields were not answered. */
export interface ProbeFacts {
  /** Every reply, in order of arrival. */
  readonly replies: readonly ReplyRecord[];
  /** Whether the DA1 sentinel arrived (from the terminal itself, or the multiplexer's). */
  readonly sentinel: boolean;
  /** Whether the probe ended on its deadline rather than on the sentinel. */
  readonly timedOut: boolean;
  /** Time from the first write to the result, by the injected clock. */
  readonly elapsedMs: number;
  /** Set when the probe wrote nothing at all (no TTY, `TERM=dumb`, background process group): the reason. */
  readonly skipped?: ProbeSkipReason | string;
  /** The terminal's own name (the outer terminal's when behind a multiplexer with passthrough). */
  readonly terminal?: TerminalName;
  /**
   * The multiplexer that answered for itself: tmux's XTVERSION (`tmux 3.3a`), or screen/tmux named by
   * their DA2 type (83 = screen, 84 = tmux) when they gave no XTVERSION.
   */
  readonly multiplexer?: TerminalName;
  /** Whether wrapped queries were answered by the outer terminal; absent when none were sent. */
  readonly passthrough?: boolean;
  /** Primary device attributes of the terminal (the outer one when passthrough answered). */
  readonly da1?: { readonly level: number; readonly attributes: readonly number[]; readonly reply: string };
  /** Secondary device attributes of the terminal (never the multiplexer's own, which names it instead). */
  readonly da2?: SecondaryAttributes;
  /** The kitty graphics query's answer. */
  readonly kittyGraphics?: { readonly ok: boolean; readonly reply: string };
  /**
   * The local-transfer query's answer (`t=t` on a probe file, kitty-local.ts): `ok` when the
   * terminal read the file; `deleted` (set by the driver after an OK) whether it also deleted it.
   */
  readonly kittyLocal?: { readonly ok: boolean; readonly reply: string; readonly deleted?: boolean };
  /** DECRQM 2026: synchronized output. */
  readonly synchronizedOutput?: { readonly supported: boolean; readonly reply: string };
  /** One cell in pixels, from `CSI 16 t` or from `14 t` / `18 t`, sanity-checked. */
  readonly cellPixels?: { readonly width: number; readonly height: number; readonly reply: string };
  /** OSC 11 background colour. */
  readonly background?: {
    readonly rgb: readonly [number, number, number];
    readonly dark: boolean;
    readonly reply: string;
  };
  /** XTSMGRAPHICS colour registers for sixel. */
  readonly sixelColors?: { readonly registers: number; readonly reply: string };
}

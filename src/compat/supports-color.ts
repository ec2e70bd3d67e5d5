/**
 * `termsight/supports-color`: a drop-in for supports-color 10.x. It answers as 10.2.2 does for the
 * same process, quirks included, because programs rely on them:
 * - `--no-color`/`--color` style flags are sniffed once, when this module is imported;
 *   `--color=256`/`--color=16m` are read at each call;
 * - `process.env` is captured at import (replacing the object later is not seen, editing it is);
 * - a `FORCE_COLOR` seen once replaces the import-time flag value for every later call;
 * - a variable exported empty counts as set where supports-color tests `in`.
 * The pure form is `colorLevel(runtime, options)`.
 */
import os from 'node:os';
import process from 'node:process';
import tty from 'node:tty';
import {
  type ColorInfo,
  type ColorLevel,
  decideColorLevel,
  envForceColor,
  flagForceColor,
  translateLevel,
} from './color-level.js';

export {
  type ColorInfo,
  type ColorLevel,
  type ColorLevelOptions,
  type ColorQuestion,
  colorLevel,
  decideColorLevel,
  envForceColor,
  flagForceColor,
  hasFlag,
  translateLevel,
} from './color-level.js';

/** supports-color's options: whether argv flags count (default true). */
export interface Options {
  readonly sniffFlags?: boolean;
  /** Not in supports-color's types, but honoured by its code: overrides the stream's own `isTTY`. */
  readonly streamIsTTY?: boolean;
}

/** supports-color's type names, for code that imports them. */
export type ColorSupportLevel = ColorLevel;
/** The answer object for a level above 0. */
export type ColorSupport = Exclude<ColorInfo, false>;

const { env } = process;
let sniffedForceColor: ColorLevel | undefined = flagForceColor(process.argv);

/**
 * The colour support of `stream` (anything with `isTTY`), as supports-color's `createSupportsColor`.
 * @example createSupportsColor(process.stdout) // { level: 3, hasBasic: true, has256: true, has16m: true } or false
 */
export function createSupportsColor(stream?: { isTTY?: boolean } | null, options: Options = {}): ColorInfo {
  const fromEnv = envForceColor(env);
  if (fromEnv !== undefined) sniffedForceColor = fromEnv;
  const settings = { streamIsTTY: stream ? stream.isTTY : undefined, sniffFlags: true, ...options };
  const level = decideColorLevel({
    env,
    argv: process.argv,
    flagForceColor: sniffedForceColor,
    platform: process.platform,
    // Read lazily, as the incumbent does, and only where it matters.
    osRelease: process.platform === 'win32' ? os.release() : undefined,
    haveStream: Boolean(stream),
    streamIsTTY: settings.streamIsTTY,
    // supports-color defaults an undefined sniffFlags to true and otherwise reads it for truth.
    sniffFlags: settings.sniffFlags === undefined ? true : Boolean(settings.sniffFlags),
  });
  return translateLevel(level);
}

/** The colour support of stdout and stderr, computed at import as supports-color's default export. */
const supportsColor: { stdout: ColorInfo; stderr: ColorInfo } = {
  stdout: createSupportsColor({ isTTY: tty.isatty(1) }),
  stderr: createSupportsColor({ isTTY: tty.isatty(2) }),
};

export default supportsColor;

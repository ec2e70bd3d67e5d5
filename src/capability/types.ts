/**
 * The shape of a capability: a sequence a terminal may understand, the guess of which terminals do
 * (`when`), and the plain text to write instead.
 */
import type { Runtime } from '../env/runtime.js';
import type { When } from './when.js';

/**
 * How `emit` treats one string argument before the capability sees it:
 * - `param`: goes inside the sequence; one carrying a control or bidi character refuses the sequence
 *   (the sanitized fallback is written instead).
 * - `url`: a `param` that must also be a non-empty URL (`isSafeUrl`).
 * - `text`: shown between sequences (a link's label); controls are removed, complete SGR colour
 *   sequences are kept.
 * - `data`: encoded by the capability (base64 for the clipboard), so any content is safe.
 * A string argument the capability does not declare is treated as `param`.
 */
export type ArgKind = 'param' | 'url' | 'text' | 'data';

/** The accepted argument kinds, for validation and error messages. */
export const ARG_KINDS: readonly ArgKind[] = ['param', 'url', 'text', 'data'];

/** Arguments handed to `emit`: named values, strings checked according to their kind. */
export type CapabilityArgs = Readonly<Record<string, unknown>>;

/** A capability: what to write when the terminal is believed to understand it, and what otherwise. */
export interface Capability<A extends object = CapabilityArgs> {
  /** The name `emit` and `supports` look it up by: `link`, `title`, … */
  readonly name: string;
  /** Which terminals are believed to understand it (see `When`). */
  readonly when: When;
  /** How each string argument is checked before it reaches `sequence` or `fallback`. */
  readonly args: Readonly<Record<string, ArgKind>>;
  /** The escape sequence for checked arguments; the runtime lets it pick a dialect (OSC 9 or 777). */
  readonly sequence: (args: A, runtime: Runtime) => string;
  /** The plain text written when the terminal is not believed to understand it, or an argument was refused. */
  readonly fallback: (args: A, runtime: Runtime) => string;
  /** One sentence: what it does. */
  readonly summary?: string;
  /** Where the `when` comes from: the terminals' documentation. */
  readonly sources?: readonly string[];
}

/** What a kitty animation upload says, read back from its APCs (for the Ink and drop-in tests). */
import { parseKittyApcs } from '../render/terminal-decoders.js';

/** The uploads of an animation in `text`: root frames (`a=T`), frames, each frame's delay, loop value, deletes. */
export interface KittyAnimationSummary {
  readonly roots: number;
  readonly ids: readonly string[];
  /** Every frame's delay in ms: the root's from `a=a,r=1,z=`, each `a=f` frame's `z=`. */
  readonly delays: readonly number[];
  /** `v=` of `a=a,s=3` (1: forever, n: n-1 plays), null when the animation was not started. */
  readonly loop: number | null;
  /** Ids deleted with `a=d,d=I`. */
  readonly deleted: readonly string[];
}

/** Reads the animation commands in `text` (continuation chunks, which name no id, are skipped). */
export function kittyAnimationSummary(text: string): KittyAnimationSummary {
  const apcs = parseKittyApcs(text);
  const ids: string[] = [];
  const delays: number[] = [];
  let roots = 0;
  let loop: number | null = null;
  const deleted: string[] = [];
  for (const { keys } of apcs) {
    const a = keys.get('a');
    const id = keys.get('i');
    if (id === undefined) continue;
    if (a === 'T') {
      roots++;
      ids.push(id);
    } else if (a === 'a' && keys.get('r') === '1') delays.push(Number(keys.get('z')));
    else if (a === 'f') delays.push(Number(keys.get('z')));
    else if (a === 'a' && keys.get('s') === '3') loop = Number(keys.get('v'));
    else if (a === 'd' && keys.get('d') === 'I') deleted.push(id);
  }
  return { roots, ids, delays, loop, deleted };
}

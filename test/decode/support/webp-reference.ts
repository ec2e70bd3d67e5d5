/**
 * libwebp's own animation compositing as a test oracle: webp-anim-reference.c (WebPAnimDecoder,
 * RGBA non-premultiplied, as anim_dump would write it) compiled with gcc against Debian's
 * libwebpdemux, which ships without headers (the C file declares the few ABI pieces it uses).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SOURCE = new URL('./webp-anim-reference.c', import.meta.url).pathname;
const LIB = '/usr/lib/x86_64-linux-gnu';

/** libwebp's composited frames of an animated WebP file. */
export interface LibwebpAnimation {
  readonly frames: Uint8Array[];
  /** Each frame's duration (the difference of WebPAnimDecoder's timestamps). */
  readonly durations: number[];
  readonly loopCount: number;
}

/**
 * A function that runs libwebp's WebPAnimDecoder on a file, or null when gcc or libwebpdemux
 * is missing. `cleanup` is given the removal of the build folder (vitest's `afterAll`).
 */
export function animReference(cleanup: (fn: () => void) => void): ((path: string) => LibwebpAnimation) | null {
  if (!existsSync(`${LIB}/libwebpdemux.so.2`) || spawnSync('gcc', ['--version']).status !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'termsight-webp-'));
  cleanup(() => rmSync(dir, { recursive: true, force: true }));
  const exe = join(dir, 'animref');
  const built = spawnSync('gcc', ['-O1', '-o', exe, SOURCE, `${LIB}/libwebpdemux.so.2`, `${LIB}/libwebp.so.7`]);
  if (built.status !== 0) return null;
  return (path) => {
    const out = execFileSync(exe, [path], { maxBuffer: 1 << 28 });
    let p = out.indexOf(10);
    const [w, h, loopCount, n] = out.subarray(0, p).toString().split(' ').map(Number) as [
      number,
      number,
      number,
      number,
    ];
    p++;
    const frames: Uint8Array[] = [];
    const durations: number[] = [];
    for (let i = 0; i < n; i++) {
      const q = out.indexOf(10, p);
      durations.push(Number(out.subarray(p, q).toString()));
      p = q + 1;
      frames.push(new Uint8Array(out.subarray(p, p + w * h * 4)));
      p += w * h * 4;
    }
    return { frames, durations, loopCount };
  };
}

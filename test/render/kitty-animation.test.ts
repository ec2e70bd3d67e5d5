/**
 * kitty animations decoded the way kitty builds them: the APCs parsed and grouped into commands,
 * the root frame from `a=T`, every `a=f` frame as a copy of its base frame (`c=`) with its
 * rectangle replaced (`X=1`), gaps from `z=` (the root's from `a=a,r=1`), the loop count from
 * `a=a,s=3,v=`; each frame then compared with the picture it should show.
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { decodeImage } from '../../src/decode/index.js';
import { animate } from '../../src/render/animation.js';
import { draw, fittedRaster, layout } from '../../src/render/backend.js';
import { frame } from '../../src/render/frame.js';
import type { RenderOptions } from '../../src/render/options.js';
import {
  type AnimationFrame,
  changedRect,
  kittyAnimation,
  kittyLoopValue,
  kittyStopAnimation,
} from '../../src/render/pixels/kitty-animation.js';
import { makeGif } from '../support/gif.js';
import { type Apc, parseKittyApcs, solid } from './terminal-decoders.js';

interface KittyModel {
  readonly id: number;
  readonly frames: { raster: Raster; gap: number }[];
  loops?: number;
  state?: number;
  readonly placement: Map<string, string>;
}

function pixels(keys: Map<string, string>, payload: string): Raster {
  let bytes: Uint8Array = Buffer.from(payload, 'base64');
  if (keys.get('o') === 'z') bytes = inflateSync(bytes);
  const width = Number(keys.get('s'));
  const height = Number(keys.get('v'));
  const format = Number(keys.get('f'));
  expect(bytes.length).toBe(width * height * (format / 8));
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++)
    data.set(format === 32 ? bytes.subarray(i * 4, i * 4 + 4) : [...bytes.subarray(i * 3, i * 3 + 3), 255], i * 4);
  return { width, height, data };
}

/** Groups chunked APCs into commands: keys of the first chunk, payload of all. */
function commands(apcs: Apc[]): { keys: Map<string, string>; payload: string }[] {
  const out: { keys: Map<string, string>; payload: string }[] = [];
  let open: { keys: Map<string, string>; payload: string } | null = null;
  for (const apc of apcs) {
    expect(apc.keys.get('q')).toBe('2');
    if (open) {
      // Continuation chunks of a frame say a=f again, and nothing else but m and q.
      const rest = [...apc.keys.keys()].filter((k) => k !== 'm' && k !== 'q');
      expect(rest).toEqual(open.keys.get('a') === 'f' ? ['a'] : []);
      open.payload += apc.payload;
    } else open = { keys: apc.keys, payload: apc.payload };
    if (apc.keys.get('m') !== '1') {
      out.push(open);
      open = null;
    }
  }
  expect(open).toBeNull();
  return out;
}

/** What kitty holds after these bytes. */
function playKitty(output: string, kitty: 'spec' | '0.46' = 'spec'): KittyModel {
  let model: KittyModel | null = null;
  for (const { keys, payload } of commands(parseKittyApcs(output))) {
    const a = keys.get('a');
    const id = Number(keys.get('i'));
    if (a === 'T') {
      model = { id, frames: [{ raster: pixels(keys, payload), gap: 0 }], placement: keys };
      continue;
    }
    if (!model) throw new Error(`a=${a} before the root frame`);
    expect(id).toBe(model.id);
    if (a === 'f') {
      const base = model.frames[Number(keys.get('c')) - 1];
      if (!base) throw new Error(`base frame ${keys.get('c')} does not exist`);
      // kitty 0.45.0-0.48.x read a=f's overwrite mode from C, not X (kitty#10379); any other
      // mode alpha-blends the rectangle onto the base frame.
      const replace = keys.get(kitty === '0.46' ? 'C' : 'X') === '1';
      const rect = pixels(keys, payload);
      const data = base.raster.data.slice();
      const x0 = Number(keys.get('x'));
      const y0 = Number(keys.get('y'));
      for (let y = 0; y < rect.height; y++) {
        const row = rect.data.subarray(y * rect.width * 4, (y + 1) * rect.width * 4);
        const at = ((y0 + y) * base.raster.width + x0) * 4;
        if (replace) data.set(row, at);
        else
          for (let i = 0; i < row.length; i += 4) {
            const a = (row[i + 3] as number) / 255;
            for (let c = 0; c < 3; c++)
              data[at + i + c] = Math.round((row[i + c] as number) * a + (data[at + i + c] as number) * (1 - a));
            data[at + i + 3] = Math.round(255 * (a + ((data[at + i + 3] as number) / 255) * (1 - a)));
          }
      }
      model.frames.push({ raster: { ...base.raster, data }, gap: Number(keys.get('z')) });
    } else if (a === 'a') {
      if (keys.has('r')) (model.frames[Number(keys.get('r')) - 1] as { gap: number }).gap = Number(keys.get('z'));
      if (keys.has('s')) model.state = Number(keys.get('s'));
      if (keys.has('v')) model.loops = Number(keys.get('v'));
    } else throw new Error(`unexpected a=${a}`);
  }
  if (!model) throw new Error('nothing uploaded');
  return model;
}

/** A 12x8 picture with a 3x3 square at (x, y) on grey, the square `rgba`. */
function square(x: number, y: number, rgba: readonly number[] = [255, 0, 0, 255]): Raster {
  const r = solid(12, 8, [90, 90, 90, 255]);
  for (let j = y; j < y + 3; j++) for (let i = x; i < x + 3; i++) r.data.set(rgba, (j * 12 + i) * 4);
  return r;
}

const same = (a: Raster, b: Raster) =>
  a.width === b.width && a.height === b.height && Buffer.from(a.data).equals(Buffer.from(b.data));

describe('kittyAnimation: every frame as kitty builds it', () => {
  const moving: AnimationFrame[] = [
    { raster: square(0, 0), delayMs: 100 },
    { raster: square(2, 1), delayMs: 50 },
    { raster: square(2, 1), delayMs: 30 }, // the same picture again: one frame, 80 ms
    { raster: square(8, 4, [0, 0, 255, 128]), delayMs: 200 }, // half transparent: f=32
    { raster: square(0, 0), delayMs: 70 },
  ];
  it.each([
    { name: 'forever', plays: 0, v: 1, kitty: 'spec' as const },
    { name: 'once', plays: 1, v: 2, kitty: 'spec' as const },
    { name: 'three times', plays: 3, v: 4, kitty: 'spec' as const },
    { name: 'kitty 0.46, overwrite read from C', plays: 0, v: 1, kitty: '0.46' as const },
  ])('frames, gaps, id and loop count ($name)', ({ plays, v, kitty }) => {
    const a = kittyAnimation(moving, { imageId: 4242, plays, columns: 6, rows: 2 });
    const model = playKitty(a.sequences.join(''), kitty);
    expect(model.id).toBe(4242);
    expect(a.frames).toBe(4);
    expect(model.frames.map((f) => f.gap)).toEqual([100, 80, 200, 70]);
    const wanted = [moving[0], moving[1], moving[3], moving[4]].map((f) => f?.raster as Raster);
    for (const [i, f] of model.frames.entries())
      expect(same(f.raster, wanted[i] as Raster), `frame ${i + 1}`).toBe(true);
    expect(model.state).toBe(3);
    expect(model.loops).toBe(v);
    expect(model.placement.get('c')).toBe('6');
    expect(model.placement.get('r')).toBe('2');
  });

  it('sends only the rectangle that changed', () => {
    const apcs = parseKittyApcs(kittyAnimation(moving.slice(0, 2), { imageId: 1 }).sequences.join(''));
    const f = apcs.find((x) => x.keys.get('a') === 'f');
    // Square from (0,0) to (2,1): the union of both squares, 5x4 from (0,0).
    expect([f?.keys.get('x'), f?.keys.get('y'), f?.keys.get('s'), f?.keys.get('v')]).toEqual(['0', '0', '5', '4']);
  });

  it('a still picture is one a=T and nothing else', () => {
    const a = kittyAnimation([{ raster: square(1, 1), delayMs: 100 }], { imageId: 9 });
    expect(parseKittyApcs(a.sequences.join('')).map((x) => x.keys.get('a'))).toEqual(['T']);
  });

  it('changedRect finds the box of differing pixels, or null', () => {
    expect(changedRect(square(0, 0), square(0, 0))).toBeNull();
    expect(changedRect(square(0, 0), square(9, 5))).toEqual({ x: 0, y: 0, width: 12, height: 8 });
  });

  it('refuses frames of different sizes and bad loop counts', () => {
    expect(() =>
      kittyAnimation([
        { raster: square(0, 0), delayMs: 1 },
        { raster: solid(2, 2, [0, 0, 0, 0]), delayMs: 1 },
      ]),
    ).toThrow(RangeError);
    expect(() => kittyLoopValue(-1)).toThrow(RangeError);
    expect(() => kittyLoopValue(1.5)).toThrow(RangeError);
  });

  it('a large frame goes in chunks, each continuation saying a=f', () => {
    const noise = (seed: number): Raster => {
      const r = solid(120, 90, [0, 0, 0, 255]);
      let s = seed;
      for (let i = 0; i < r.data.length; i += 4) {
        s = (s * 1103515245 + 12345) >>> 0;
        r.data.set([s & 255, (s >> 8) & 255, (s >> 16) & 255], i);
      }
      return r;
    };
    const frames = [
      { raster: noise(1), delayMs: 40 },
      { raster: noise(2), delayMs: 40 },
    ];
    const model = playKitty(kittyAnimation(frames, { imageId: 5, compress: false }).sequences.join(''));
    expect(same(model.frames[1]?.raster as Raster, frames[1]?.raster as Raster)).toBe(true);
  });
});

describe('a decoded GIF played by kitty (animate, native)', () => {
  const gif = makeGif(20, 10, 4, { loop: 2, delayCs: 7 });
  const image = decodeImage(gif);
  const options = { columns: 4, rows: 2, cellPixels: { width: 10, height: 20 } };

  it("uploads once; the frames, delays and loop count are the file's", () => {
    let out = '';
    const handle = animate(image.frames, 'kitty', {
      ...options,
      native: true,
      plays: image.plays ?? 0,
      imageId: 77,
      write: (s) => {
        out += s;
      },
    });
    expect(handle.mode).toBe('terminal');
    expect(handle.imageId).toBe(77);
    expect(image.plays).toBe(3); // NETSCAPE loop count 2: played three times, as browsers do
    const model = playKitty(out);
    const lay = layout(image.frames[0]?.raster as Raster, 'kitty', options);
    expect(model.frames).toHaveLength(4);
    for (const [i, f] of model.frames.entries()) {
      expect(f.gap).toBe(image.frames[i]?.delayMs);
      expect(same(f.raster, fittedRaster(image.frames[i]?.raster as Raster, lay)), `frame ${i + 1}`).toBe(true);
    }
    expect(model.loops).toBe(4);
    // The cell size is known: drawn 1:1, no c/r.
    expect(model.placement.has('c')).toBe(false);
    out = '';
    handle.stop();
    expect(out).toBe(kittyStopAnimation(77));
    out = '';
    handle.delete();
    handle.delete();
    expect(parseKittyApcs(out).map((a) => [a.keys.get('a'), a.keys.get('d'), a.keys.get('i')])).toEqual([
      ['d', 'I', '77'],
    ]);
  });
});

describe('animate: the redraw loop elsewhere', () => {
  it('redraws each frame after its delay, stops, and deletes what it drew', async () => {
    vi.useFakeTimers();
    try {
      const frames = [
        { raster: square(0, 0), delayMs: 100 },
        { raster: square(5, 3), delayMs: 100 },
      ];
      const writes: string[] = [];
      const handle = animate(frames, 'blocks', { columns: 12, rows: 4, write: (s) => writes.push(s) });
      expect(handle.mode).toBe('redraw');
      expect(writes).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(100);
      expect(writes).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(100);
      expect(writes).toHaveLength(3); // looping: the first frame again
      handle.stop();
      await vi.advanceTimersByTimeAsync(1000);
      expect(writes).toHaveLength(3);
      await handle.done;
      handle.delete();
      // The cells erased: one ECH per row between save and restore.
      expect(writes[3]).toMatch(/^\x1b7\x1b\[\d+X(\x1b8\x1b\[\d+B\x1b\[\d+X)*\x1b8$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops by itself after its plays', async () => {
    vi.useFakeTimers();
    try {
      const frames = [
        { raster: square(0, 0), delayMs: 10 },
        { raster: square(5, 3), delayMs: 10 },
      ];
      const writes: string[] = [];
      const handle = animate(frames, 'sixel', { columns: 12, rows: 4, plays: 2, write: (s) => writes.push(s) });
      await vi.advanceTimersByTimeAsync(1000);
      await handle.done;
      expect(writes).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('N=1: a short-lived picture (kitty 0.48+, kitty#10090), only when asked', () => {
  const picture = square(0, 0);
  it.each<{ name: string; options: RenderOptions; n: boolean }>([
    { name: 'a picture', options: {}, n: false },
    { name: 'a short-lived picture', options: { kittyShortLived: true }, n: true },
    { name: 'a short-lived placeholder picture', options: { kittyShortLived: true, placeholders: true }, n: true },
  ])('$name', ({ options, n }) => {
    const apcs = parseKittyApcs(draw(picture, 'kitty', options).sequences.join(''));
    const first = apcs[0];
    expect(first?.keys.get('N')).toBe(n ? '1' : undefined);
  });
  it('a redrawn frame of a stored image carries it too', () => {
    const out = frame(picture, 'kitty', { placements: true, kittyShortLived: true, imageId: 7 });
    const upload = parseKittyApcs(out.output).find((a) => a.keys.get('a') === 't');
    expect(upload?.keys.get('N')).toBe('1');
  });
});

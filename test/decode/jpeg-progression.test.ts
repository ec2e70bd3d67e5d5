import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeJpeg } from '../../src/decode/jpeg.js';
import { skippableScans } from '../../src/decode/jpeg-progression.js';
import { parseFrameHeader } from '../../src/decode/jpeg-segments.js';
import { fixture } from './jpeg-helpers.js';

/** Where a file's frame header ends, and the header, for `skippableScans`. */
function frameOf(bytes: Uint8Array): { after: number; header: ReturnType<typeof parseFrameHeader> } {
  let p = 2;
  for (;;) {
    const marker = bytes[p + 1] as number;
    const length = ((bytes[p + 2] as number) << 8) | (bytes[p + 3] as number);
    if (marker === 0xc2)
      return { after: p + 2 + length, header: parseFrameHeader(marker, bytes.subarray(p + 4, p + 2 + length)) };
    p += 2 + length;
  }
}

/** A progressive 64x64 frame of `components` (ids 1..n, 1x1), then one scan per row of `scans` with a byte of data each, then EOI. */
function progression(components: number, scans: readonly (readonly number[])[]): Uint8Array {
  const out: number[] = [0xff, 0xd8];
  const sof = [8, 0, 64, 0, 64, components];
  for (let c = 1; c <= components; c++) sof.push(c, 0x11, 0);
  out.push(0xff, 0xc2, 0, sof.length + 2, ...sof);
  for (const [id, start, end, high, low] of scans as number[][]) {
    out.push(
      0xff,
      0xda,
      0,
      8,
      1,
      id as number,
      0,
      start as number,
      end as number,
      ((high as number) << 4) | (low as number),
      0x5a,
    );
  }
  out.push(0xff, 0xd9);
  return Uint8Array.from(out);
}

describe('skippableScans', () => {
  // Scans numbered from 0 in file order; lastRead per component: 0 at 1/8, 4 at 1/4 (2x2), 24 at 1/2.
  it.each([
    {
      name: 'progressive-444 at 1/8: every AC scan',
      file: 'progressive-444.jpg',
      lastRead: [0, 0, 0],
      expected: [1, 2, 3, 4, 5, 7, 8, 9],
    },
    {
      name: "progressive-420 at 1/8: luma's AC scans (chroma is transformed 2x2)",
      file: 'progressive-420.jpg',
      lastRead: [0, 4, 4],
      expected: [1, 4, 5, 9],
    },
    { name: 'progressive-grey at 1/8', file: 'progressive-grey.jpg', lastRead: [0], expected: [1, 2, 3, 5] },
    {
      name: "progressive-444 at 1/4: none (the refinement of 1..63 needs 6..63's first scan)",
      file: 'progressive-444.jpg',
      lastRead: [4, 4, 4],
      expected: [],
    },
    {
      name: 'progressive-restart at 1/8 (RSTn inside the data)',
      file: 'progressive-restart.jpg',
      lastRead: [0, 4, 4],
      expected: [1, 4, 5, 9],
    },
  ])('$name', ({ file, lastRead, expected }) => {
    const bytes = fixture(`jpeg/${file}`);
    const { after, header } = frameOf(bytes);
    expect([...(skippableScans(bytes, after, header, lastRead) ?? [])].sort((a, b) => a - b)).toEqual(expected);
  });

  // [component id, Ss, Se, Ah, Al] per scan.
  it.each([
    {
      name: 'bands refined apart: 6..63 and its refinement skipped at 1/4',
      scans: [
        [1, 0, 0, 0, 1],
        [1, 1, 5, 0, 1],
        [1, 6, 63, 0, 1],
        [1, 0, 0, 1, 0],
        [1, 1, 5, 1, 0],
        [1, 6, 63, 1, 0],
      ],
      lastRead: [4],
      expected: [2, 5],
    },
    {
      name: 'a refinement of 1..63 keeps 6..63 at 1/4',
      scans: [
        [1, 0, 0, 0, 1],
        [1, 1, 5, 0, 1],
        [1, 6, 63, 0, 1],
        [1, 1, 63, 1, 0],
      ],
      lastRead: [4],
      expected: [],
    },
    {
      name: 'a refinement of 1..63 skipped at 1/8 with every band under it',
      scans: [
        [1, 0, 0, 0, 1],
        [1, 1, 5, 0, 1],
        [1, 6, 63, 0, 1],
        [1, 1, 63, 1, 0],
        [1, 0, 0, 1, 0],
      ],
      lastRead: [0],
      expected: [1, 2, 3],
    },
    {
      name: 'a refinement needed through a chain: 3..10 refined, so 8..63 is needed for it',
      scans: [
        [1, 0, 0, 0, 0],
        [1, 1, 7, 0, 1],
        [1, 8, 63, 0, 1],
        [1, 3, 10, 1, 0],
        [1, 11, 63, 1, 0],
      ],
      lastRead: [4],
      expected: [4],
    },
    {
      name: 'one component per scan: only the one reading less is skipped',
      scans: [
        [1, 0, 0, 0, 0],
        [2, 0, 0, 0, 0],
        [3, 0, 0, 0, 0],
        [1, 1, 63, 0, 0],
        [2, 1, 63, 0, 0],
      ],
      lastRead: [0, 4, 0],
      expected: [3],
    },
  ])('$name', ({ scans, lastRead, expected }) => {
    const bytes = progression(lastRead.length, scans);
    const { after, header } = frameOf(bytes);
    expect([...(skippableScans(bytes, after, header, lastRead) ?? [])].sort((a, b) => a - b)).toEqual(expected);
  });

  it.each([
    { name: 'cut before EOI', cut: 2 },
    { name: 'cut inside the last scan header', cut: 8 },
  ])('$name: null, every scan decoded', ({ cut }) => {
    const whole = fixture('jpeg/progressive-444.jpg');
    const bytes = whole.subarray(0, whole.length - cut);
    const { after, header } = frameOf(bytes);
    expect(skippableScans(bytes, after, header, [0, 0, 0])).toBeNull();
  });
});

describe('progressive JPEG decoded at a scale, scans skipped', () => {
  // SHA-256 of the RGBA decodes recorded with the build before scans were skipped: skipping
  // changes no pixel.
  it.each([
    {
      name: 'progressive-420.jpg at 1/2',
      file: 'progressive-420.jpg',
      scale: 2,
      size: '49x31',
      sha256: 'f244595f8eba5775619945372602a671e10fa82d52978de422094a867b4a5e5b',
    },
    {
      name: 'progressive-420.jpg at 1/4',
      file: 'progressive-420.jpg',
      scale: 4,
      size: '25x16',
      sha256: '47a826be79009520ab9a06fbfd1f0e2c3ab4d6bdc3f4b9ab31453faf5629e55b',
    },
    {
      name: 'progressive-420.jpg at 1/8',
      file: 'progressive-420.jpg',
      scale: 8,
      size: '13x8',
      sha256: 'd04c2920a43946145983ad2b507717a64c914c377185b3ad61cff52b900f4269',
    },
    {
      name: 'progressive-444.jpg at 1/2',
      file: 'progressive-444.jpg',
      scale: 2,
      size: '49x31',
      sha256: '0852320d6ec62c8af4ed3dff8b2122051a1f0c3d8c664c7b2d50c5767969e4b8',
    },
    {
      name: 'progressive-444.jpg at 1/4',
      file: 'progressive-444.jpg',
      scale: 4,
      size: '25x16',
      sha256: '699cdcb1001a46bb42859896d19d0235148fdeb5ef090fcb1a6ba82ccf425c17',
    },
    {
      name: 'progressive-444.jpg at 1/8',
      file: 'progressive-444.jpg',
      scale: 8,
      size: '13x8',
      sha256: '3e933a8f9c552b0a3af7e0c9d5ba86a14252b31a150e0367184bfbff89605e6a',
    },
    {
      name: 'progressive-grey.jpg at 1/2',
      file: 'progressive-grey.jpg',
      scale: 2,
      size: '49x31',
      sha256: '30840b85935bcb14e0f174e0f02145175171cabca0fd7f896de5e16983401347',
    },
    {
      name: 'progressive-grey.jpg at 1/4',
      file: 'progressive-grey.jpg',
      scale: 4,
      size: '25x16',
      sha256: 'd09069667aeaa799899466fba7deb3f44d5921a2a7572ba4adcb3d6ad2bebc57',
    },
    {
      name: 'progressive-grey.jpg at 1/8',
      file: 'progressive-grey.jpg',
      scale: 8,
      size: '13x8',
      sha256: '2ce3031501f40c0c490e8c9aec94533650e299d004046a11064181b960b8caf9',
    },
    {
      name: 'progressive-restart.jpg at 1/2',
      file: 'progressive-restart.jpg',
      scale: 2,
      size: '49x31',
      sha256: 'f244595f8eba5775619945372602a671e10fa82d52978de422094a867b4a5e5b',
    },
    {
      name: 'progressive-restart.jpg at 1/4',
      file: 'progressive-restart.jpg',
      scale: 4,
      size: '25x16',
      sha256: '47a826be79009520ab9a06fbfd1f0e2c3ab4d6bdc3f4b9ab31453faf5629e55b',
    },
    {
      name: 'progressive-restart.jpg at 1/8',
      file: 'progressive-restart.jpg',
      scale: 8,
      size: '13x8',
      sha256: 'd04c2920a43946145983ad2b507717a64c914c377185b3ad61cff52b900f4269',
    },
  ])('$name: $size, the same pixels as decoding every scan', ({ file, scale, size, sha256 }) => {
    const bytes = fixture(`jpeg/${file}`);
    const box = { width: Math.ceil(97 / scale), height: Math.ceil(61 / scale) };
    const { raster, scale: used } = decodeJpeg(bytes, { maxSize: box });
    expect(used).toBe(scale);
    expect(`${raster.width}x${raster.height}`).toBe(size);
    expect(createHash('sha256').update(raster.data).digest('hex')).toBe(sha256);
  });
});

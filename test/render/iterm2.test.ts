import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIterm2, ITERM2_PART_BYTES, iterm2Sequences, sanitizeName } from '../../src/render/pixels/iterm2.js';
import { encodePng } from '../../src/render/pixels/png.js';
import { parseIterm2, pngToRaster, randomRaster, solid } from './terminal-decoders.js';

function decode(text: string) {
  const seqs = parseIterm2(text);
  let b64: string;
  let args: Map<string, string>;
  if (seqs[0].kind === 'File') {
    expect(seqs).toHaveLength(1);
    b64 = seqs[0].payload;
    args = seqs[0].args;
  } else {
    expect(seqs[0].kind).toBe('MultipartFile');
    expect(seqs.at(-1)!.kind).toBe('FileEnd');
    const parts = seqs.slice(1, -1);
    parts.forEach((p, i) => {
      expect(p.kind).toBe('FilePart');
      if (i < parts.length - 1) expect(p.payload.length).toBe(ITERM2_PART_BYTES);
      expect(p.payload.length % 4 === 0 || i === parts.length - 1).toBe(true);
    });
    b64 = parts.map((p) => p.payload).join('');
    args = seqs[0].args;
  }
  const png = Buffer.from(b64, 'base64');
  expect(Number(args.get('size'))).toBe(png.length);
  return { args, raster: pngToRaster(png), count: seqs.length };
}

describe('encodeIterm2', () => {
  it.each([
    { name: '1x1', raster: solid(1, 1, [1, 2, 3, 255]) },
    { name: 'translucent', raster: solid(7, 5, [1, 2, 3, 100]) },
    { name: 'noise', raster: randomRaster(50, 30, 2) },
  ])('$name decodes to the same pixels', ({ raster }) => {
    const { args, raster: back } = decode(encodeIterm2(raster, { columns: 3, rows: 2 }));
    expect(args.get('inline')).toBe('1');
    expect(args.get('width')).toBe('3');
    expect(args.get('height')).toBe('2');
    expect(args.get('preserveAspectRatio')).toBe('1');
    expect(Buffer.from(back.data).equals(Buffer.from(raster.data))).toBe(true);
  });

  it('exact sequence for a small PNG', () => {
    const png = encodePng(solid(1, 1, [0, 0, 0, 255]));
    const b64 = Buffer.from(png).toString('base64');
    expect(iterm2Sequences(png, { columns: 1, rows: 1 })).toEqual([
      `\x1b]1337;File=inline=1;size=${png.length};width=1;height=1;preserveAspectRatio=1:${b64}\x07`,
    ]);
  });

  it.each([
    {
      name: 'multiplexer tmux, multipart auto -> multipart true',
      multiplexer: 'tmux',
      multipart: 'auto',
      expected: true,
    },
    {
      name: 'multiplexer screen, multipart auto -> multipart true',
      multiplexer: 'screen',
      multipart: 'auto',
      expected: true,
    },
    {
      name: 'multiplexer null, multipart auto -> multipart false',
      multiplexer: null,
      multipart: 'auto',
      expected: false,
    },
    { name: 'multiplexer null, multipart true -> multipart true', multiplexer: null, multipart: true, expected: true },
    {
      name: 'multiplexer tmux, multipart false -> multipart false',
      multiplexer: 'tmux',
      multipart: false,
      expected: false,
    },
  ] as const)('$name', ({ multiplexer, multipart, expected }) => {
    const raster = randomRaster(60, 60, 7);
    const text = encodeIterm2(raster, { multiplexer, multipart });
    const { raster: back, count } = decode(text);
    expect(count > 1).toBe(expected);
    expect(Buffer.from(back.data).equals(Buffer.from(raster.data))).toBe(true);
  });

  it('names are sanitized and base64-encoded', () => {
    const png = encodePng(solid(1, 1, [0, 0, 0, 255]));
    const [seq] = iterm2Sequences(png, { name: '../evil\x07\x1b]2;pwned\x07.png' });
    const name = parseIterm2(seq)[0].args.get('name')!;
    expect(Buffer.from(name, 'base64').toString()).toBe('..evil]2;pwned.png');
    expect(seq.slice(0, -1)).not.toMatch(/[\x00-\x1a\x1c-\x1f\x07]/);
  });

  it.each([
    { name: 'C0 and C1 controls dropped', input: 'a\u0000b\u009cc', out: 'abc' },
    { name: 'slashes dropped: no path', input: '/etc/passwd', out: 'etcpasswd' },
    { name: 'blank becomes empty', input: '  ', out: '' },
    { name: 'cut to 255 characters', input: 'x'.repeat(300), out: 'x'.repeat(255) },
    { name: 'letters beyond ASCII kept', input: '日本.png', out: '日本.png' },
  ])('sanitizeName: $name', ({ input, out }) => {
    expect(sanitizeName(input)).toBe(out);
  });

  it('random rasters round-trip exactly (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer(),
        fc.boolean(),
        fc.boolean(),
        (w, h, seed, opaque, multipart) => {
          const raster = randomRaster(w, h, seed, opaque);
          const { raster: back } = decode(encodeIterm2(raster, { multipart }));
          expect(Buffer.from(back.data).equals(Buffer.from(raster.data))).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });
});

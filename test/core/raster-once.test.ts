import { describe, expect, it } from 'vitest';
import { validateRaster } from '../../src/core/raster.js';
import { toTerminal } from '../../src/render/backend.js';

/** A raster whose size getters answer 2x2 the first time they are read, then 200x200. */
function shifting() {
  const data = new Uint8Array(2 * 2 * 4).fill(255);
  let reads = 0;
  return {
    get width() {
      return reads++ < 1 ? 2 : 200;
    },
    get height() {
      return reads++ < 2 ? 2 : 200;
    },
    data,
  };
}

describe('a raster is read once', () => {
  it('validateRaster returns the values it checked, as a plain object', () => {
    const checked = validateRaster(shifting());
    expect([checked.width, checked.height, checked.width]).toEqual([2, 2, 2]);
  });

  it('a plain raster is returned as is', () => {
    const plain = { width: 1, height: 1, data: new Uint8Array(4) };
    expect(validateRaster(plain)).toBe(plain);
  });

  it.each([
    { name: 'kitty', protocol: 'kitty' as const },
    { name: 'sixel', protocol: 'sixel' as const },
    { name: 'blocks', protocol: 'blocks' as const },
  ])('$name draws the size validated, not what the getters say after', ({ protocol }) => {
    const drawn = toTerminal(shifting() as never, protocol, { columns: 10, rows: 5, imageId: 7 });
    expect(drawn).toEqual(
      toTerminal({ width: 2, height: 2, data: new Uint8Array(16).fill(255) }, protocol, {
        columns: 10,
        rows: 5,
        imageId: 7,
      }),
    );
  });
});

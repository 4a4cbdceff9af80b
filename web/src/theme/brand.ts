import type { BrandVariants } from '@fluentui/react-components';

type Rgb = [number, number, number];

const toRgb = (hex: string): Rgb => {
  const n = parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

const toHex = ([r, g, b]: Rgb): string =>
  `#${[r, g, b].map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

/**
 * A Fluent brand ramp (shades 10..160) around one primary colour: the primary
 * sits at 80 (Fluent's primary slot), darker shades mix towards a deep tone of
 * the same hue, lighter ones towards white.
 */
export function brandRamp(primary: string): BrandVariants {
  const base = toRgb(primary);
  const deep = mix(base, [0, 0, 0], 0.85);
  const shades: Record<number, string> = {};
  for (let i = 1; i <= 16; i++) {
    const step = i * 10;
    shades[step] = step <= 80 ? toHex(mix(deep, base, (i - 1) / 7)) : toHex(mix(base, [255, 255, 255], ((i - 8) / 8) * 0.92));
  }
  return shades as unknown as BrandVariants;
}

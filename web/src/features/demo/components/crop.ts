/** Crops an image (with rotation about its centre) to a PNG data URL on a canvas. */
export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

const load = (src: string): Promise<HTMLImageElement> =>
  new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image failed to load'));
    img.src = src;
  });

/** Size of the bounding box of a w×h rectangle rotated by `deg`. */
export function rotatedSize(w: number, h: number, deg: number): { width: number; height: number } {
  const r = (deg * Math.PI) / 180;
  return { width: Math.abs(Math.cos(r) * w) + Math.abs(Math.sin(r) * h), height: Math.abs(Math.sin(r) * w) + Math.abs(Math.cos(r) * h) };
}

export async function cropToDataUrl(src: string, area: PixelArea, rotation = 0): Promise<string> {
  const img = await load(src);
  const w = img.naturalWidth || img.width;
  const h = img.naturalHeight || img.height;
  const box = rotatedSize(w, h, rotation);
  const full = document.createElement('canvas');
  full.width = Math.round(box.width);
  full.height = Math.round(box.height);
  const ctx = full.getContext('2d');
  if (!ctx) return '';
  ctx.translate(full.width / 2, full.height / 2);
  ctx.rotate((rotation * Math.PI) / 180);
  ctx.drawImage(img, -w / 2, -h / 2, w, h);
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.round(area.width));
  out.height = Math.max(1, Math.round(area.height));
  out.getContext('2d')?.drawImage(full, Math.round(area.x), Math.round(area.y), out.width, out.height, 0, 0, out.width, out.height);
  return out.toDataURL('image/png');
}

/** Builds a 16-bit mono PCM WAV file (RIFF) from samples in −1..1. */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const str = (o: number, s: string) => [...s].forEach((c, i) => view.setUint8(o + i, c.charCodeAt(0)));
  str(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  str(8, 'WAVE');
  str(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  str(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  samples.forEach((s, i) => view.setInt16(44 + i * 2, Math.max(-1, Math.min(1, s)) * 0x7fff, true));
  return bytes;
}

/** A short melody (note frequencies in Hz, each `noteSeconds` long, soft attack/decay). */
export function melody(notes: number[], noteSeconds: number, sampleRate: number): Float32Array {
  const per = Math.round(noteSeconds * sampleRate);
  const out = new Float32Array(per * notes.length);
  notes.forEach((f, n) => {
    for (let i = 0; i < per; i++) {
      const env = Math.min(1, i / (0.02 * sampleRate)) * Math.exp((-3 * i) / per);
      out[n * per + i] = f > 0 ? 0.4 * env * Math.sin((2 * Math.PI * f * i) / sampleRate) : 0;
    }
  });
  return out;
}

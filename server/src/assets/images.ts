/** Image types accepted as uploads (avatars), decided by their first bytes, never by the name. */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** 1 MiB: an avatar is shown at 40 px; anything bigger is a mistake or an abuse. */
export const MAX_IMAGE_BYTES = 1024 * 1024;

const startsWith = (data: Buffer, bytes: number[], at = 0): boolean =>
  data.length >= at + bytes.length && bytes.every((b, i) => data[at + i] === b);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** The image type of the bytes (magic numbers), or null for anything else (SVG included). */
export function sniffImageType(data: Buffer): ImageType | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(data, ascii('GIF87a')) || startsWith(data, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/**
 * Why an upload is not an acceptable image, or null. SVG is refused by name and by content:
 * it is a document that can carry script, and served from our origin it would run there.
 */
export function imageProblem(fileName: string, data: Buffer): string | null {
  const head = data.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
  if (/\.svgz?$/i.test(fileName) || head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) {
    return 'file: SVG images are not accepted (they can carry script); upload a PNG, JPEG, WebP or GIF';
  }
  if (!data.length) return 'file: the file is empty';
  if (!sniffImageType(data)) return 'file: not a PNG, JPEG, WebP or GIF image (checked by its content, not its name)';
  return null;
}

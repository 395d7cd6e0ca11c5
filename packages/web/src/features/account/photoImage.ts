/**
 * A picked picture turned into the small data URL the server stores: checked by type and file
 * size first, then scaled down to PHOTO_MAX_PIXELS in a canvas (a phone camera picture of several
 * megabytes becomes a few kilobytes). The server checks the result again.
 */
import { ACCOUNT_PROFILE_ERRORS, isPhotoType, PHOTO_MAX_BYTES, PHOTO_MAX_PIXELS, PHOTO_SOURCE_MAX_BYTES } from '@nemuri/shared/accountProfile';
import { ProfileInputError } from './api/accountApi.ts';

/** Bytes a base64 data URL decodes to. */
export function dataUrlBytes(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  return Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}

/** Refuses what cannot become a photo, before any decoding. */
export function checkPhotoFile(file: Pick<File, 'type' | 'size'>): void {
  if (!isPhotoType(file.type)) throw new ProfileInputError(ACCOUNT_PROFILE_ERRORS.invalidPhoto, `type ${file.type}`);
  if (file.size > PHOTO_SOURCE_MAX_BYTES) throw new ProfileInputError(ACCOUNT_PROFILE_ERRORS.photoTooLarge, `size ${file.size}`);
}

export async function photoDataUrl(file: File): Promise<string> {
  checkPhotoFile(file);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new ProfileInputError(ACCOUNT_PROFILE_ERRORS.invalidPhoto, 'the picture cannot be read');
  }
  const scale = Math.min(1, PHOTO_MAX_PIXELS / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (context === null) throw new ProfileInputError(ACCOUNT_PROFILE_ERRORS.invalidPhoto, 'no canvas');
  // PNG keeps transparency; anything else becomes JPEG on white, which is far smaller for photos.
  const type = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
  if (type === 'image/jpeg') {
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
  }
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  let result = canvas.toDataURL(type, 0.85);
  if (dataUrlBytes(result) > PHOTO_MAX_BYTES) result = canvas.toDataURL('image/jpeg', 0.7);
  if (dataUrlBytes(result) > PHOTO_MAX_BYTES) throw new ProfileInputError(ACCOUNT_PROFILE_ERRORS.photoTooLarge, 'still too large');
  return result;
}

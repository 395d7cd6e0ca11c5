import { describe, expect, it } from 'vitest';
import { PHOTO_SOURCE_MAX_BYTES } from '@nemuri/shared/accountProfile';
import type { ProfileInputError } from './api/accountApi.ts';
import { checkPhotoFile, dataUrlBytes } from './photoImage.ts';

describe('photo checks in the browser', () => {
  it('refuses other types and huge files before decoding', () => {
    expect(() => checkPhotoFile({ type: 'image/png', size: 1000 })).not.toThrow();
    expect(() => checkPhotoFile({ type: 'image/svg+xml', size: 1000 })).toThrow(expect.objectContaining({ reason: 'invalid-photo' }) as ProfileInputError);
    expect(() => checkPhotoFile({ type: 'image/jpeg', size: PHOTO_SOURCE_MAX_BYTES + 1 })).toThrow(
      expect.objectContaining({ reason: 'photo-too-large' }) as ProfileInputError,
    );
  });

  it('counts the bytes a data URL decodes to', () => {
    expect(dataUrlBytes(`data:image/png;base64,${Buffer.from('abcd').toString('base64')}`)).toBe(4);
    expect(dataUrlBytes(`data:image/png;base64,${Buffer.from('abcde').toString('base64')}`)).toBe(5);
    expect(dataUrlBytes(`data:image/png;base64,${Buffer.from('abcdef').toString('base64')}`)).toBe(6);
  });
});

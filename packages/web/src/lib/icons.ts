import { ICON_SIZES, type IconSize } from '@nemuri/shared/constants';

/** Pixel size of an icon preset (xs 18, sm 24, md 32, lg 38, xl 46). */
export function iconSize(size: IconSize = 'sm'): number {
  return ICON_SIZES[size];
}
